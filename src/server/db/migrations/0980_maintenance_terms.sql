-- The customer accepts the maintenance terms when subscribing
-- (docs/decisions/266-maintenance-terms-acceptance.md), recorded like the checkout's
-- (order_terms_acceptances): the wording's version, the time, a hash of order id, address and
-- user agent. Null on plans opened before acceptance was asked.
alter table maintenance_subscriptions add column terms_version text;
alter table maintenance_subscriptions add column terms_accepted_at timestamptz;
alter table maintenance_subscriptions add column terms_client_hash text;
