-- Order files (decisions 140 and 141): the customer's brand assets and content,
-- the agency's designs and deliverables. The bytes live in the file storage (local folder or S3)
-- under storage_key; this row is the truth about a file: a stored object without a row is an
-- abandoned upload and is never served.
create table order_files (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  -- The person who uploaded it (kept as null when their account is erased) and the side they were on.
  uploader_user_id uuid references users(id) on delete set null,
  uploaded_by text not null check (uploaded_by in ('customer', 'agency')),
  -- Sanitised original name (no path, no control or bidi characters, at most 200 characters).
  name text not null check (char_length(name) between 1 and 200),
  size bigint not null check (size > 0),
  -- Decided from the bytes, never from the name or the browser's header.
  content_type text not null,
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  storage_key text not null unique,
  created_at timestamptz not null default now()
);
create index order_files_by_order on order_files (order_id, created_at);

-- One row per order that has ever received a file: uploads lock it (select … for update) while
-- they add up the order's files against ORDER_FILES_QUOTA_MB, so parallel uploads cannot pass the
-- quota together. A row of its own, so an upload never holds a lock on the order itself.
create table order_file_quota_locks (
  order_id uuid primary key references orders(id) on delete cascade
);
