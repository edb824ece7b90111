-- Accounts: sign-in codes, signup tickets, social identities and the OpenID Connect
-- round trip. Every secret (code, ticket, state, handoff) is stored only as a hash.

create table login_codes (
  id uuid primary key default gen_random_uuid(),
  email text not null check (email = lower(email)),
  purpose text not null check (purpose in ('login', 'signup')),
  code_hash text not null,
  salt text not null,
  ip text,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  created_at timestamptz not null default now()
);
-- latest code of an e-mail, and per-e-mail / per-IP hourly counts
create index login_codes_email_idx on login_codes (email, created_at desc);
create index login_codes_ip_idx on login_codes (ip, created_at desc);
create index login_codes_created_idx on login_codes (created_at);

create table signup_tickets (
  id uuid primary key default gen_random_uuid(),
  token_hash text not null unique,
  email text not null check (email = lower(email)),
  -- set when the ticket comes from Google/Microsoft: the identity to link on addUser
  provider text check (provider in ('google', 'microsoft')),
  subject text,
  name text,
  profile jsonb,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index signup_tickets_expires_idx on signup_tickets (expires_at);

create table identities (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  provider text not null check (provider in ('google', 'microsoft')),
  subject text not null,
  email text,
  profile jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, subject)
);
create index identities_user_idx on identities (user_id, provider);

create table oidc_states (
  state_hash text primary key,
  -- hash of the random value in the browser's cookie: the callback must come from the browser
  -- that started the flow (no login CSRF)
  browser_hash text not null,
  provider text not null check (provider in ('google', 'microsoft')),
  code_verifier text not null,
  nonce text not null,
  return_to text not null,
  is_pricing boolean not null default false,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index oidc_states_expires_idx on oidc_states (expires_at);

-- The one-time value the callback hands to the browser (in the URL fragment) and the browser
-- exchanges through auth/authLogin for a session or a signup ticket.
create table social_handoffs (
  token_hash text primary key,
  provider text not null check (provider in ('google', 'microsoft')),
  subject text not null,
  email text not null,
  name text,
  profile jsonb not null default '{}'::jsonb,
  user_id uuid references users(id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index social_handoffs_expires_idx on social_handoffs (expires_at);
