-- Decisions 145–147: the brief of an order, the terms the customer
-- accepted at checkout, and the delivery date set by the UI approval.

-- The brief (intake form): one per order, saved as a draft while typed, submitted once.
-- `answers` maps question ids of src/domain/brief.ts to a string or a list of strings.
create table order_briefs (
  order_id uuid primary key references orders(id) on delete cascade,
  answers jsonb not null default '{}'::jsonb,
  submitted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Chargeback evidence: the version (hash) of the Terms and Conditions accepted when the advance
-- checkout was opened, when, and a hash of the client's address and user agent (never the raw
-- values). One row per order: the advance opens a new order each time.
create table order_terms_acceptances (
  order_id uuid primary key references orders(id) on delete cascade,
  terms_version text not null check (length(terms_version) between 1 and 80),
  accepted_at timestamptz not null,
  client_hash text check (client_hash is null or length(client_hash) = 64)
);

-- The UI approval sets the delivery date: approval day + DELIVERY_DAYS_AFTER_UI_APPROVAL (UTC).
alter table orders add column ui_approved_at timestamptz;
alter table orders add column due_date date;
create index orders_due_date_idx on orders (due_date) where due_date is not null;
