-- Support after delivery (decision 170): requests per delivered order with
-- their own thread and states, and the one-time "support ends soon" offer.

-- A request of the customer on a delivered order. `waiting_since` is when the customer started
-- waiting for the agency (the request, a customer message or a reopen while nobody waits) and is
-- cleared by the agency's reply or by resolving/closing; the founder's queue sorts and flags on it.
create table support_requests (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  title text not null check (char_length(title) between 1 and 120),
  description text not null check (char_length(description) between 1 and 5000),
  category text not null check (category in ('bug', 'change', 'question')),
  state text not null default 'open' check (state in ('open', 'in_progress', 'resolved', 'closed')),
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  last_message_at timestamptz not null default now(),
  last_customer_message_at timestamptz not null default now(),
  waiting_since timestamptz,
  first_response_at timestamptz,
  -- Set exactly while the request is resolved: the auto-close job closes it 7 days later.
  resolved_at timestamptz,
  closed_at timestamptz,
  check ((state = 'resolved') = (resolved_at is not null))
);
create index support_requests_by_order on support_requests (order_id, created_at);
create index support_requests_queue on support_requests (state, waiting_since);
create index support_requests_resolved on support_requests (resolved_at) where state = 'resolved';

-- Files of the same order attached to the request itself (checked by the writer). No cascade
-- from the file: an attached file cannot be deleted (the order-files in-use hook says so).
create table support_request_files (
  request_id uuid not null references support_requests(id) on delete cascade,
  file_id uuid not null references order_files(id),
  position integer not null,
  primary key (request_id, file_id)
);
create index support_request_files_by_file on support_request_files (file_id);

-- The request's thread between the customer and the agency.
create table support_messages (
  id uuid primary key default gen_random_uuid(),
  seq bigint generated always as identity unique,
  request_id uuid not null references support_requests(id) on delete cascade,
  sender text not null check (sender in ('customer', 'agency')),
  sender_user_id uuid references users(id) on delete set null,
  text text not null check (char_length(text) between 1 and 5000),
  created_at timestamptz not null default now()
);
create index support_messages_by_request on support_messages (request_id, seq);

create table support_message_files (
  message_id uuid not null references support_messages(id) on delete cascade,
  file_id uuid not null references order_files(id),
  position integer not null,
  primary key (message_id, file_id)
);
create index support_message_files_by_file on support_message_files (file_id);

-- E-mails about the support window sent once per order and kind: the row is claimed (inserted)
-- in the same transaction as the mail goes into the outbox, so two instances send one mail.
create table support_offers (
  order_id uuid not null references orders(id) on delete cascade,
  kind text not null check (kind in ('plan_offer')),
  support_until timestamptz not null,
  sent_at timestamptz not null default now(),
  primary key (order_id, kind)
);
