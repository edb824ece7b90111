-- WhatsApp notices with recorded consent (docs/decisions/345-whatsapp-notices-and-consent.md) and
-- the chat console's availability, canned replies and ratings (docs/decisions/347-chat-availability-canned-replies-csat.md).

-- Append-only: every opt-in and opt-out is a new row with the exact wording shown, the number, the
-- person and the time. The latest row of a person says whether they are opted in. Rows are never
-- updated; an erased account's rows are deleted with it (decision 192).
create table whatsapp_consents (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  opted_in boolean not null,
  -- E.164 digits without '+', as WhatsApp addresses them.
  phone text not null check (phone ~ '^[0-9]{6,20}$'),
  wording text not null check (char_length(wording) between 1 and 2000),
  -- 'dashboard': the person's own click; 'stop': they replied STOP on WhatsApp.
  source text not null check (source in ('dashboard', 'stop')),
  created_at timestamptz not null default clock_timestamp()
);
create index whatsapp_consents_user_idx on whatsapp_consents (user_id, created_at desc);
create index whatsapp_consents_phone_idx on whatsapp_consents (phone, created_at desc);

create function whatsapp_consents_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'whatsapp_consents is append-only';
end $$;
create trigger whatsapp_consents_no_update before update on whatsapp_consents
  for each row execute function whatsapp_consents_append_only();

-- The WhatsApp outbox: a notice is written in its event's transaction ('pending'); the job pass sends
-- at most one template per order per 30 minutes (the others of the batch become 'batched' into it).
-- Statuses from Meta's webhook (sent, delivered, read, failed) update the sent row.
create table whatsapp_messages (
  id uuid primary key default gen_random_uuid(),
  order_id uuid references orders(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  template text not null check (template in ('payment_receipt', 'stage_update', 'review_ready', 'payment_due', 'site_down', 'support_reply')),
  kind text not null,
  params jsonb not null default '[]',
  ref_id text not null,
  state text not null default 'pending'
    check (state in ('pending', 'batched', 'skipped', 'accepted', 'sent', 'delivered', 'read', 'failed')),
  phone text,
  wa_message_id text unique,
  error text,
  batched_into uuid references whatsapp_messages(id) on delete set null,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  status_at timestamptz,
  unique (template, ref_id, user_id)
);
create index whatsapp_messages_pending_idx on whatsapp_messages (created_at) where state = 'pending';
create index whatsapp_messages_order_sent_idx on whatsapp_messages (order_id, sent_at desc) where sent_at is not null;

-- Chat availability: one row, the agency's "available" / "away" switch in the console.
create table chat_availability (
  id integer primary key default 1 check (id = 1),
  available boolean not null default true,
  updated_by uuid references users(id) on delete set null,
  updated_at timestamptz not null default now()
);
insert into chat_availability (id, available) values (1, true);

-- Canned replies kept by the owner, inserted in the console by their shortcut (e.g. /price).
create table chat_canned_replies (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(title) between 1 and 80),
  body text not null check (char_length(body) between 1 and 2000),
  shortcut text not null unique check (shortcut ~ '^/[a-z0-9_-]{1,30}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- CSAT: a closed chat is rated once by its visitor.
create table chat_ratings (
  chat_id text primary key references chat_conversations(id) on delete cascade,
  score integer not null check (score between 1 and 5),
  comment text check (comment is null or char_length(comment) <= 1000),
  created_at timestamptz not null default now()
);
create index chat_ratings_created_idx on chat_ratings (created_at);
