-- Platform tables every feature relies on: accounts, sessions and the mail outbox.
create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null unique check (email = lower(email)),
  name text,
  phone_code text,
  phone_number text,
  address text,
  role text not null default 'customer' check (role in ('customer', 'admin')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  token_hash text not null unique,
  user_agent text,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  absolute_expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_user_id_idx on sessions (user_id);

create table mail_outbox (
  id uuid primary key default gen_random_uuid(),
  to_address text not null,
  template text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  state text not null default 'pending' check (state in ('pending', 'sent', 'failed')),
  transport text,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
create index mail_outbox_due_idx on mail_outbox (next_attempt_at) where state = 'pending';
create index mail_outbox_to_idx on mail_outbox (to_address, created_at desc);
