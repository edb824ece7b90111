-- The Idempotency-Key of create and state-changing POSTs (docs/decisions/210-idempotency-key.md):
-- the first answer to a key, per account, kept 24 h in the database so every instance replays it.
-- `status` is null while the first request is still running (a second one waits for it).
create table idempotency_keys (
  user_id uuid not null references users(id) on delete cascade,
  key text not null,
  request_hash text not null,
  status integer,
  content_type text,
  body text,
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
