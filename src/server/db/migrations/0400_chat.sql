-- Live chat (§5 "Chat"). The primary key is the capability the creator
-- receives as chatId: 192 random bits, never sequential.
create table chat_conversations (
  id text primary key check (length(id) = 32),
  user_id uuid references users(id) on delete set null,
  state text not null default 'waiting' check (state in ('waiting', 'open', 'closed')),
  contact_email text check (contact_email is null or length(contact_email) <= 100),
  admin_unread integer not null default 0,
  visitor_unread integer not null default 0,
  last_message text,
  last_message_at timestamptz,
  founder_notified_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz not null default now()
);
-- The admin console lists conversations that are not closed, most recent activity first.
create index chat_conversations_active_idx on chat_conversations (coalesce(last_message_at, created_at) desc) where state <> 'closed';
create index chat_conversations_user_idx on chat_conversations (user_id) where user_id is not null;

create table chat_messages (
  seq bigint generated always as identity primary key,
  id uuid not null unique default gen_random_uuid(),
  conversation_id text not null references chat_conversations(id) on delete cascade,
  sender text not null check (sender in ('user', 'admin')),
  body text not null check (length(body) between 1 and 2000),
  created_at timestamptz not null default clock_timestamp()
);
create index chat_messages_conversation_idx on chat_messages (conversation_id, seq);

-- The AI assistant's server-side memory: the client only ever holds the thread id.
create table assistant_threads (
  id text primary key check (length(id) = 32),
  turns integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index assistant_threads_updated_idx on assistant_threads (updated_at);

create table assistant_messages (
  seq bigint generated always as identity primary key,
  thread_id text not null references assistant_threads(id) on delete cascade,
  role text not null check (role in ('user', 'assistant')),
  content text not null,
  created_at timestamptz not null default clock_timestamp()
);
create index assistant_messages_thread_idx on assistant_messages (thread_id, seq);

-- Extra knowledge the founder adds from the back office; merged into the retrieval index.
create table assistant_entries (
  id uuid primary key default gen_random_uuid(),
  title text not null check (length(title) between 1 and 200),
  body text not null check (length(body) between 1 and 5000),
  active boolean not null default true,
  created_at timestamptz not null default now()
);
create index assistant_entries_active_idx on assistant_entries (created_at) where active;

-- Table of @socket.io/postgres-adapter for payloads over NOTIFY's 8000-byte limit. Created here,
-- not by the adapter, because two instances starting together race on CREATE TABLE.
create table if not exists socket_io_attachments (
  id bigserial unique,
  created_at timestamptz default now(),
  payload bytea
);
create index socket_io_attachments_created_idx on socket_io_attachments (created_at);
