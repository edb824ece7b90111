-- A plan subscribed during the included support starts when that support ends (Razorpay
-- Subscriptions `start_at`; docs/decisions/233-maintenance-starts-after-included-support.md):
-- nothing is charged before it. Null: started at once (subscribed after the window).
alter table maintenance_subscriptions add column starts_at timestamptz;
