-- Test payments get their own invoice series (decision 120). A payment made with
-- the built-in test checkout or with Razorpay test keys (rzp_test_…) moved no money: it must not
-- take a number of the gap-free tax-invoice series, or an operator who later goes live starts with
-- a hole. Such payments are numbered in the 'test_invoice' series (TEST/{fy}/{seq:4}) instead.

-- Whether the payment was taken in test mode, decided when the provider order is opened (the key
-- in use then, not whichever key is configured when a late webhook settles it).
alter table payment_attempts add column test_mode boolean not null default false;
-- Attempts made before this column: the built-in test checkout is test mode by definition.
update payment_attempts set test_mode = true where provider = 'test';

alter table invoice_counters drop constraint invoice_counters_series_check;
alter table invoice_counters add constraint invoice_counters_series_check check (series in ('invoice', 'credit_note', 'test_invoice'));
alter table invoices drop constraint invoices_series_check;
alter table invoices add constraint invoices_series_check check (series in ('invoice', 'credit_note', 'test_invoice'));
-- A credit note, and only a credit note, corrects an invoice.
alter table invoices drop constraint invoices_check;
alter table invoices add constraint invoices_credit_note_for_check check ((series = 'credit_note') = (credit_note_for is not null));

-- Issued once per payment and per installment, whichever series it is in.
drop index invoices_payment_uidx;
drop index invoices_installment_uidx;
create unique index invoices_payment_uidx on invoices (provider_payment_id) where series in ('invoice', 'test_invoice');
create unique index invoices_installment_uidx on invoices (installment_id) where series in ('invoice', 'test_invoice');
