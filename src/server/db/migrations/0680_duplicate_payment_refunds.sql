-- A second payment for an installment already paid must be refunded, and the
-- founder sees it until it is. 'needed' from the moment it is recorded; 'refunded' with the
-- provider's refund id or the founder's own reference, who did it and when.
alter table payment_attempts
  add column refund_state text check (refund_state in ('needed', 'refunded')),
  add column refund_reference text check (refund_reference is null or length(refund_reference) between 1 and 200),
  add column refunded_at timestamptz,
  add column refunded_by uuid references users(id) on delete set null;

update payment_attempts set refund_state = 'needed' where state = 'duplicate' and refund_state is null;

create index payment_attempts_refund_needed_idx on payment_attempts (paid_at) where refund_state = 'needed';
