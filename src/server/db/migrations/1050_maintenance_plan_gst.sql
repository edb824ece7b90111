-- The maintenance plan with its GST (docs/decisions/322-maintenance-plan-gst.md). `amount` stays
-- what the provider charges each month (the plan's total, tax included); `price` is the plan's
-- price before tax it was sold at, from which each month's tax invoice splits the tax. Null: a plan
-- opened before, charged its price flat — its price is its amount.
alter table maintenance_subscriptions add column price bigint check (price is null or price > 0);

-- The owner moved a plan to its price with GST (PATCH /v1/subscriptions/{id}, schedule_change_at
-- cycle_end): the new provider plan and amount, from when (the end of the paid period). The first
-- charge at the new amount makes them the plan's own and clears them. `reprice_requested_at`: the
-- provider is being asked right now (a second click waits for that answer; a stale one is retried).
alter table maintenance_subscriptions add column pending_plan_id text;
alter table maintenance_subscriptions add column pending_amount bigint check (pending_amount is null or pending_amount > 0);
alter table maintenance_subscriptions add column pending_from timestamptz;
alter table maintenance_subscriptions add column repriced_at timestamptz;
alter table maintenance_subscriptions add column reprice_requested_at timestamptz;
alter table maintenance_subscriptions add constraint maintenance_subscriptions_pending_check
  check ((pending_plan_id is null) = (pending_amount is null));
