-- Tax invoices. One invoice per captured installment, numbered without gaps per
-- series and financial year. Each number comes from a counter row that is locked (upsert) in the
-- same transaction as the invoice insert, so a rolled-back payment leaves no hole and two
-- instances settling at once queue on the row. Amounts are integer minor units.
create table invoice_counters (
  series text not null check (series in ('invoice', 'credit_note')),
  financial_year text not null,
  last_number integer not null check (last_number > 0),
  primary key (series, financial_year)
);

create table invoices (
  id uuid primary key default gen_random_uuid(),
  series text not null default 'invoice' check (series in ('invoice', 'credit_note')),
  number text not null unique,
  financial_year text not null,
  sequence integer not null check (sequence > 0),
  -- The order and installment may be erased with the customer's account; the invoice stays
  -- (its snapshot holds everything printed on it).
  order_id uuid references orders(id) on delete set null,
  installment_id uuid references installments(id) on delete set null,
  user_id uuid references users(id) on delete set null,
  installment_kind text check (installment_kind in ('advance', 'remaining')),
  provider_payment_id text,
  -- A credit note corrects exactly one invoice; an invoice is never edited.
  credit_note_for uuid references invoices(id) on delete restrict,
  currency text not null,
  amount bigint not null check (amount >= 0),
  snapshot jsonb not null,
  issued_at timestamptz not null,
  created_at timestamptz not null default now(),
  unique (series, financial_year, sequence),
  check ((series = 'invoice') = (credit_note_for is null))
);
-- Issued once per payment, even when webhook and browser confirm together.
create unique index invoices_payment_uidx on invoices (provider_payment_id) where series = 'invoice';
create unique index invoices_installment_uidx on invoices (installment_id) where series = 'invoice';
create index invoices_order_idx on invoices (order_id, issued_at);

-- Never changed after issue: only the links set null by an erased account may change.
create function invoices_immutable() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'invoices are never deleted; issue a credit note';
  end if;
  if (new.id, new.series, new.number, new.financial_year, new.sequence, new.installment_kind, new.provider_payment_id,
      new.credit_note_for, new.currency, new.amount, new.snapshot, new.issued_at)
     is distinct from
     (old.id, old.series, old.number, old.financial_year, old.sequence, old.installment_kind, old.provider_payment_id,
      old.credit_note_for, old.currency, old.amount, old.snapshot, old.issued_at) then
    raise exception 'an invoice is never changed after issue; issue a credit note';
  end if;
  return new;
end $$;
create trigger invoices_immutable before update or delete on invoices for each row execute function invoices_immutable();

-- Optional billing details the customer may give before paying (printed on the invoice).
create table billing_details (
  user_id uuid primary key references users(id) on delete cascade,
  billing_name text check (length(billing_name) <= 120),
  billing_address text check (length(billing_address) <= 500),
  tax_id text check (length(tax_id) <= 20),
  updated_at timestamptz not null default now()
);

-- The receipt e-mail carries the invoice PDF.
alter table mail_outbox add column attachments jsonb;
