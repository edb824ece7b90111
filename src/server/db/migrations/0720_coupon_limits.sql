-- Coupon limits (docs/decisions/092-coupon-limits.md).
-- Promo codes: at most this many paid orders per customer (null = no per-customer limit). New and
-- existing coupons default to one use per customer; the back office can change it per coupon.
alter table coupons add column max_uses_per_customer integer default 1
  check (max_uses_per_customer is null or max_uses_per_customer > 0);

-- An advance checkout that applies a limited code holds one of its uses until this time; a payment
-- arriving later keeps the discount only if a use is still free then.
alter table orders add column coupon_hold_until timestamptz;
-- Set when the code was taken back at payment because its limit was reached meanwhile: the order
-- then costs the full price, the difference moved into the remaining installment.
alter table orders add column coupon_withdrawn_at timestamptz;
create index orders_coupon_holds_idx on orders (coupon_id, coupon_hold_until) where state = 'awaiting_advance' and coupon_id is not null;
create index coupon_redemptions_coupon_user_idx on coupon_redemptions (coupon_id, user_id);
