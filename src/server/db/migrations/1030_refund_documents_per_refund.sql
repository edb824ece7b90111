-- A payment may be refunded in parts (a refund made in Razorpay's dashboard, then a cancel's refund
-- of the rest: docs/decisions/321-cancel-and-refund.md), each part with its own refund voucher or
-- credit note. The rule "one refund voucher per receipt voucher" of migration 0920 refused the
-- second part (found by the order account's random walk); a document is now unique per refund: its
-- payment and the refund's own reference, printed as the snapshot's payment id.
drop index invoices_refund_voucher_uidx;
create unique index invoices_refund_document_uidx on invoices (provider_payment_id, (snapshot->>'paymentId'))
  where doc_kind in ('refund_voucher', 'credit_note');
