-- The maintenance plan calls Razorpay outside any row lock (docs/decisions/230-provider-calls-outside-locks.md):
-- a subscribe first claims the order here ("subscribing"), commits, calls the provider, then
-- records the subscription and drops the claim in one transaction. A claim left by a crash between
-- the two is dropped by the reconcile job once older than the provider's timeout.
create table maintenance_subscribe_claims (
  order_id uuid primary key references orders(id) on delete cascade,
  claimed_at timestamptz not null default now()
);

-- A cancel claims the subscription the same way: set before the provider call, the plan marked
-- cancel_at_period_end after its answer; one still set without the mark is retried by the
-- reconcile job.
alter table maintenance_subscriptions add column cancel_requested_at timestamptz;
