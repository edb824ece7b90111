-- Passkeys, the back office's second factor, staff, and privacy self-service.

-- Staff work on orders without the owner's rights (decision 191). The owner keeps the role 'admin'.
alter table users drop constraint users_role_check;
alter table users add constraint users_role_check check (role in ('customer', 'staff', 'admin'));
-- Set when the person deleted their account: the row stays, anonymised, so the orders, payments and
-- invoices the law makes us keep still point somewhere (decision 192).
alter table users add column deleted_at timestamptz;

-- When this session was last confirmed with a passkey or a recovery code (the step-up, decision 190),
-- and the city the geo lookup gave when it was created (the sessions list).
alter table sessions add column confirmed_at timestamptz;
alter table sessions add column city text;

create table passkeys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  -- base64url, as WebAuthn's JSON carries them
  credential_id text not null unique,
  public_key text not null,
  counter bigint not null default 0 check (counter >= 0),
  transports jsonb not null default '[]',
  device_type text,
  backed_up boolean not null default false,
  name text not null check (length(name) between 1 and 60),
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index passkeys_user_idx on passkeys (user_id);

-- One row per ceremony: a challenge is consumed once, so an options answer cannot be used twice.
create table webauthn_challenges (
  id uuid primary key default gen_random_uuid(),
  challenge text not null unique,
  purpose text not null check (purpose in ('registration', 'login', 'step-up')),
  user_id uuid references users(id) on delete cascade,
  session_id uuid references sessions(id) on delete cascade,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  created_at timestamptz not null default now()
);
create index webauthn_challenges_expires_idx on webauthn_challenges (expires_at);

-- Ten one-time codes per back-office account, stored hashed, shown once.
create table recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index recovery_codes_user_idx on recovery_codes (user_id);

-- The owner's staff list, by e-mail: whoever signs in with a listed address gets the role 'staff'.
create table staff_members (
  id uuid primary key default gen_random_uuid(),
  email text not null unique,
  invited_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now()
);

-- A change of e-mail waits for the code sent to the new address.
create table email_change_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  new_email text not null,
  code_hash text not null,
  salt text not null,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  created_at timestamptz not null default now()
);
create index email_change_codes_user_idx on email_change_codes (user_id, created_at);
