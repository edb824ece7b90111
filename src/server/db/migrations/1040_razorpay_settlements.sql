-- Razorpay's payouts to the agency (docs/decisions/323-razorpay-settlements.md), read by
-- features/payouts from GET /v1/settlements and GET /v1/settlements/recon/combined. Rows are
-- Razorpay's own figures in paise, upserted by their ids: a second read stores nothing twice.

-- One payout (settlement) to the agency's bank account: net of Razorpay's fees and the GST on them.
create table razorpay_settlements (
  id text primary key check (char_length(id) between 1 and 100),
  -- Paid into the bank, net of `fees` (which include `tax`, the GST on them).
  amount bigint not null,
  fees bigint not null default 0,
  tax bigint not null default 0,
  utr text,
  status text not null,
  -- Razorpay's created_at: when the settlement was made.
  created_at timestamptz not null,
  read_at timestamptz not null default now()
);
create index razorpay_settlements_created_idx on razorpay_settlements (created_at);

-- One transaction a settlement carried (a payment, a refund, an adjustment …), by Razorpay's id
-- (pay_…, rfnd_…, adj_…). Matched to the app's payments and refunds when read (features/payouts).
create table razorpay_settlement_items (
  entity_id text primary key check (char_length(entity_id) between 1 and 100),
  type text not null,
  settlement_id text not null,
  settlement_utr text,
  -- The transaction's amount; `fee` (GST included) and `tax` (the GST) are Razorpay's charges on it;
  -- `credit` and `debit` what it added to or took from the payout.
  amount bigint not null,
  fee bigint not null default 0,
  tax bigint not null default 0,
  debit bigint not null default 0,
  credit bigint not null default 0,
  currency text not null default 'INR',
  settled_at timestamptz not null,
  -- Razorpay's order id, and the payment a refund or an adjustment belongs to.
  provider_order_id text,
  payment_id text,
  read_at timestamptz not null default now()
);
create index razorpay_settlement_items_settlement_idx on razorpay_settlement_items (settlement_id);
create index razorpay_settlement_items_settled_idx on razorpay_settlement_items (settled_at);

-- The months whose recon was read, and when: a payment counts as "not settled" only where the
-- month it was paid in was read (a month before the first read says nothing).
create table razorpay_recon_reads (
  month text primary key check (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  read_at timestamptz not null,
  items integer not null
);

-- The daily read: one row per day (INVOICE_TIME_ZONE), inserted by the first job pass of the day on
-- any instance together with its `payouts.sync` job, so two instances never both schedule it.
create table payout_sync_days (
  day date primary key,
  created_at timestamptz not null default now()
);

-- The match by Razorpay's payment id.
create index payment_attempts_provider_payment_idx on payment_attempts (provider_payment_id) where provider_payment_id is not null;
create index installments_provider_payment_idx on installments (provider_payment_id) where provider_payment_id is not null;
