-- Privacy self-service — e-mail change and the data export (decision 193).

-- The address a change of e-mail was asked from: the per-network limit holds across instances, like
-- the sign-in codes' (login_codes.ip).
alter table email_change_codes add column ip text;
create index email_change_codes_new_email_idx on email_change_codes (new_email, created_at);
create index email_change_codes_ip_idx on email_change_codes (ip, created_at);

-- One row per download of "all my data": the per-user limit (a few per hour) is counted here, so it
-- holds across instances and across the person's sessions.
create table account_exports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  created_at timestamptz not null default now()
);
create index account_exports_user_idx on account_exports (user_id, created_at);
