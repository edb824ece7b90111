-- GST documents (docs/decisions/220-gst-tax-rules.md, 221-gst-documents.md). Each kind of document
-- has its own gap-free series per financial year: receipt vouchers for advances (RV/…), tax
-- invoices (INV/…), refund vouchers (RF/…), credit notes (CN/…); test-mode payments keep the TEST
-- series for every kind. The snapshot stays the printed truth; the columns added here are what the
-- monthly return (GSTR-1) selects and sums on, frozen at issue like the rest.

alter table invoice_counters drop constraint invoice_counters_series_check;
alter table invoice_counters add constraint invoice_counters_series_check
  check (series in ('invoice', 'credit_note', 'test_invoice', 'receipt_voucher', 'refund_voucher'));
alter table invoices drop constraint invoices_series_check;
alter table invoices add constraint invoices_series_check
  check (series in ('invoice', 'credit_note', 'test_invoice', 'receipt_voucher', 'refund_voucher'));

-- What the document is, whatever series numbered it (a test-mode receipt voucher is in TEST/…).
-- Older rows: the advance's and the remaining's invoices, credit notes.
alter table invoices add column doc_kind text not null default 'invoice'
  check (doc_kind in ('receipt_voucher', 'tax_invoice', 'refund_voucher', 'credit_note', 'invoice', 'receipt'));
update invoices set doc_kind = 'credit_note' where series = 'credit_note';
-- The tax regime the document was issued under, and its figures in the document's currency.
alter table invoices add column tax_regime text not null default 'none' check (tax_regime in ('none', 'gst'));
alter table invoices add column supply_type text not null default 'none' check (supply_type in ('intra', 'inter', 'export', 'none'));
alter table invoices add column place_of_supply_code text;
alter table invoices add column buyer_gstin text;
alter table invoices add column taxable_value bigint;
alter table invoices add column tax_amount bigint not null default 0;
-- The INR value of a document in another currency (exports), at the rate printed on it.
alter table invoices add column inr_value bigint;
-- A tax invoice adjusts the advance's receipt voucher; a refund voucher refunds one.
alter table invoices add column adjusts_invoice_id uuid references invoices(id);
alter table invoices add column test_mode boolean not null default false;
update invoices set test_mode = true where series = 'test_invoice';
-- Cancelled documents still count in the return's "documents issued" (never deleted).
alter table invoices add column cancelled_at timestamptz;

-- One issuing document per installment and per payment, whichever kind and series.
drop index invoices_payment_uidx;
drop index invoices_installment_uidx;
create unique index invoices_payment_uidx on invoices (provider_payment_id)
  where doc_kind in ('receipt_voucher', 'tax_invoice', 'invoice', 'receipt');
create unique index invoices_installment_uidx on invoices (installment_id)
  where doc_kind in ('receipt_voucher', 'tax_invoice', 'invoice', 'receipt');
-- One refund voucher per receipt voucher.
create unique index invoices_refund_voucher_uidx on invoices (adjusts_invoice_id) where doc_kind = 'refund_voucher';
alter table invoices drop constraint invoices_credit_note_for_check;
alter table invoices add constraint invoices_credit_note_for_check check ((doc_kind = 'credit_note') = (credit_note_for is not null));
create index invoices_issued_idx on invoices (issued_at);

-- Only the cancellation mark and the erased-account links may change after issue.
create or replace function invoices_immutable() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'invoices are never deleted; issue a credit note';
  end if;
  if (new.id, new.series, new.number, new.financial_year, new.sequence, new.installment_kind, new.provider_payment_id,
      new.credit_note_for, new.currency, new.amount, new.snapshot, new.issued_at, new.doc_kind, new.tax_regime,
      new.supply_type, new.place_of_supply_code, new.buyer_gstin, new.taxable_value, new.tax_amount, new.inr_value, new.adjusts_invoice_id, new.test_mode)
     is distinct from
     (old.id, old.series, old.number, old.financial_year, old.sequence, old.installment_kind, old.provider_payment_id,
      old.credit_note_for, old.currency, old.amount, old.snapshot, old.issued_at, old.doc_kind, old.tax_regime,
      old.supply_type, old.place_of_supply_code, old.buyer_gstin, old.taxable_value, old.tax_amount, old.inr_value, old.adjusts_invoice_id, old.test_mode) then
    raise exception 'an invoice is never changed after issue; issue a credit note';
  end if;
  return new;
end $$;

-- The buyer's place of supply (IGST Act s.12): country, Indian state, optional GSTIN.
alter table billing_details add column country text check (country ~ '^[A-Z]{2}$');
alter table billing_details add column state_code text check (state_code ~ '^[0-9]{2}$');
alter table billing_details add column gstin text check (length(gstin) = 15);

-- The tax an order was quoted with, kept as quoted (a later change of billing details or
-- configuration does not change it): regime, rates, supply type, place of supply, taxable value.
alter table orders add column tax jsonb;
