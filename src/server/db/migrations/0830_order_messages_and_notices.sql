-- Order messages and notices (decision 155).

-- The thread of one order between its customer and the agency. `seq` orders the thread and is what
-- a read marker remembers (two messages in one millisecond stay distinct and ordered).
create table order_messages (
  id uuid primary key default gen_random_uuid(),
  seq bigint generated always as identity unique,
  order_id uuid not null references orders(id) on delete cascade,
  sender text not null check (sender in ('customer', 'agency')),
  -- Who wrote it (kept as null when their account is erased); the side is what the thread shows.
  sender_user_id uuid references users(id) on delete set null,
  text text not null check (char_length(text) between 1 and 5000),
  created_at timestamptz not null default now()
);
create index order_messages_by_order on order_messages (order_id, seq);

-- Attachments: files of the same order (checked by the writer). No cascade from the file: a file a
-- message refers to cannot be deleted (the order-files in-use hook says so first).
create table order_message_files (
  message_id uuid not null references order_messages(id) on delete cascade,
  file_id uuid not null references order_files(id),
  position integer not null,
  primary key (message_id, file_id)
);
create index order_message_files_by_file on order_message_files (file_id);

-- How far each side has read the thread: messages of the other side with a greater seq are unread.
-- The agency is one side: any admin reading the thread reads it for the agency.
create table order_message_reads (
  order_id uuid not null references orders(id) on delete cascade,
  side text not null check (side in ('customer', 'agency')),
  last_read_seq bigint not null default 0,
  read_at timestamptz not null default now(),
  primary key (order_id, side)
);

-- Something the other side should hear about. The job of notices/send-notices.ts sends, per order
-- and recipient side, one e-mail listing every unsent notice once the oldest is
-- ORDER_NOTIFY_DELAY_SECONDS old; a notice read in the app first (read_at) is never mailed.
-- `summary` is what the e-mail may say: never a message's or a comment's text.
create table notices (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  recipient text not null check (recipient in ('customer', 'agency')),
  kind text not null check (kind in ('message', 'review_opened', 'review_decided', 'review_comment', 'support_reply')),
  -- The message, review round or comment it is about; with kind and recipient it makes a notice
  -- idempotent (an event delivered twice makes one notice).
  ref_id uuid not null,
  summary text not null check (char_length(summary) between 1 and 300),
  created_at timestamptz not null default now(),
  read_at timestamptz,
  sent_at timestamptz,
  unique (kind, ref_id, recipient)
);
create index notices_waiting on notices (order_id, recipient, created_at) where read_at is null and sent_at is null;
create index notices_waiting_since on notices (created_at) where read_at is null and sent_at is null;
