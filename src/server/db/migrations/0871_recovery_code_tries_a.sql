-- Decision 190: every recovery-code try, counted before the comparison, so guessing is
-- limited per account and per address across instances (the code of a hit is deleted again).
create table recovery_code_tries (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  ip text not null,
  created_at timestamptz not null default now()
);
create index recovery_code_tries_user_idx on recovery_code_tries (user_id, created_at);
create index recovery_code_tries_ip_idx on recovery_code_tries (ip, created_at);
