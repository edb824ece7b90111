-- Back office on top of orders and money: what only the founder writes.

-- Internal note per order: never returned by a customer-facing route.
create table admin_order_notes (
  order_id uuid primary key references orders(id) on delete cascade,
  note text not null check (length(note) <= 5000),
  updated_by uuid references users(id) on delete set null,
  updated_at timestamptz not null default now()
);

-- Payout reference of a cashback entry the founder marked paid.
create table cashback_payouts (
  cashback_id uuid primary key references cashback(id) on delete cascade,
  reference text not null check (length(reference) between 1 and 200),
  paid_by uuid references users(id) on delete set null,
  paid_at timestamptz not null default now()
);

-- Indexes for the back office's own queries on the orders tables.
create index admin_orders_created_idx on orders (created_at desc, id) where state <> 'awaiting_advance';
create index admin_installments_paid_idx on installments (paid_at) where state = 'paid';
create index admin_cashback_state_idx on cashback (state, currency);
