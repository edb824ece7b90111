-- The order's account (docs/decisions/320-order-ledger.md): one append-only list of every charge line
-- and every movement of money on an order, written in the transaction that causes it
-- (features/ledger). Every money figure a person sees is read from it.

create table order_ledger (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  -- Insertion order, for a statement that lists lines as they were written.
  seq bigint generated always as identity,
  -- When the line took effect: the order placed, the money moved, the document issued.
  at timestamptz not null,
  kind text not null check (kind in ('charge', 'discount', 'tax', 'payment', 'refund', 'credit_note')),
  description text not null,
  -- The document the line belongs to (receipt voucher, invoice, refund voucher, credit note).
  invoice_id uuid references invoices(id) on delete set null,
  document_number text,
  -- Signed minor units of `currency` (the order's): charges and tax positive, discounts, payments
  -- and credit notes negative, refunds positive. The statement's balance is their sum.
  amount bigint not null,
  currency text not null,
  -- Paise at the document's rate, for a line of a document in another currency (null: INR, or no rate).
  inr_amount bigint,
  -- A tax line's kind (CGST, SGST, IGST).
  tax_kind text check (tax_kind in ('CGST', 'SGST', 'IGST')),
  -- What wrote the line ('order', 'payment:<provider payment id>', 'change:<id>', 'maintenance:<charge id>',
  -- 'refund:<refund id>', 'cancel'), with its place in that group: a retried write adds nothing.
  source text not null,
  line_no integer not null,
  -- The provider's payment or refund id of a movement (payouts match Razorpay's settlements on it).
  provider_ref text,
  test_mode boolean not null default false,
  created_at timestamptz not null default now(),
  unique (order_id, source, line_no)
);
create index order_ledger_order_idx on order_ledger (order_id, seq);
create index order_ledger_moved_idx on order_ledger (at) where kind in ('payment', 'refund');
create index order_ledger_provider_ref_idx on order_ledger (provider_ref) where provider_ref is not null;

-- Append-only: a line is never changed, and goes only with its order (the cascade, after the order row).
create function order_ledger_append_only() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then raise exception 'order_ledger is append-only: post a correcting line instead';
  end if;
  if exists (select 1 from orders where id = old.order_id) then
    raise exception 'order_ledger is append-only: a line goes only with its order';
  end if;
  return old;
end $$;
create trigger order_ledger_append_only before update or delete on order_ledger
  for each row execute function order_ledger_append_only();

-- A new line moves the order's version, so kept answers that show its totals are read again
-- (docs/decisions/317-order-reads-table.md).
create constraint trigger order_reads_order_ledger after insert on order_ledger
  deferrable initially deferred for each row execute function order_reads_changed();

-- Money returned to a customer: asked of the provider (Razorpay's Refunds API), pending until its
-- webhook says processed or failed; a test-mode refund is processed at once.
create table payment_refunds (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  provider text not null check (provider in ('razorpay', 'test', 'manual')),
  provider_payment_id text not null,
  provider_refund_id text unique,
  amount bigint not null check (amount > 0),
  currency text not null,
  status text not null default 'pending' check (status in ('pending', 'processed', 'failed')),
  -- Why: a cancel, a duplicate payment, a refund made in Razorpay's dashboard, or one recorded by hand.
  origin text not null check (origin in ('cancel', 'duplicate', 'dashboard', 'manual')),
  reason text,
  test_mode boolean not null default false,
  -- The refund voucher or credit note issued for it (none for a duplicate payment).
  document_id uuid references invoices(id) on delete set null,
  requested_by uuid references users(id) on delete set null,
  failure_reason text,
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  processed_at timestamptz,
  failed_at timestamptz
);
create index payment_refunds_order_idx on payment_refunds (order_id);
create index payment_refunds_failed_idx on payment_refunds (failed_at) where status = 'failed';

-- An order can now be cancelled (by the owner, with a reason).
alter table orders drop constraint if exists orders_state_check;
alter table orders add constraint orders_state_check check (state in ('awaiting_advance', 'in_progress', 'paid', 'delivered', 'cancelled'));
alter table orders add column cancelled_at timestamptz;
alter table orders add column cancel_reason text;
alter table orders add column cancelled_by uuid references users(id) on delete set null;
