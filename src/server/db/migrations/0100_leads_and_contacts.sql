-- Public site: leads from the landing page and messages from the contact form.
-- Everything a visitor typed is stored verbatim as text and shown inert everywhere.
-- handled_at lets the back office mark an entry as dealt with.
create table leads (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('email', 'phone')),
  email text check (email is null or (email = lower(email) and length(email) <= 100)),
  phone text check (phone is null or length(phone) <= 30),
  page text check (page is null or length(page) <= 200),
  ip text,
  user_agent text,
  created_at timestamptz not null default now(),
  handled_at timestamptz,
  check ((kind = 'email') = (email is not null)),
  check ((kind = 'phone') = (phone is not null))
);
create index leads_created_at_idx on leads (created_at desc);
create index leads_open_idx on leads (created_at desc) where handled_at is null;

create table contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 100),
  email text not null check (email = lower(email) and length(email) <= 100),
  message text not null default '' check (length(message) <= 5000),
  phone_code text not null check (length(phone_code) <= 10),
  phone_number text not null check (length(phone_number) <= 11),
  address text not null default '' check (length(address) <= 500),
  user_id uuid references users(id) on delete set null,
  ip text,
  user_agent text,
  created_at timestamptz not null default now(),
  handled_at timestamptz
);
create index contact_messages_created_at_idx on contact_messages (created_at desc);
create index contact_messages_open_idx on contact_messages (created_at desc) where handled_at is null;
create index contact_messages_user_id_idx on contact_messages (user_id);
