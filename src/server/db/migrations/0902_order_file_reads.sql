-- When the agency last opened an order's files (docs/decisions/213-action-counts.md): customer
-- uploads after it are "new customer files" in the founder's inbox.
create table order_file_reads (
  order_id uuid primary key references orders(id) on delete cascade,
  agency_read_at timestamptz not null
);
