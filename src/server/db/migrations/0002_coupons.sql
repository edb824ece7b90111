-- Coupons are shared by the promotion banner (public site), checkout (orders) and the back office,
-- so the table ships with the platform. Referral codes are coupons of kind 'referral' with an owner.
create table coupons (
  id uuid primary key default gen_random_uuid(),
  code text not null unique check (code = upper(code) and length(code) between 3 and 40),
  kind text not null check (kind in ('promo', 'referral')),
  percent integer not null check (percent between 1 and 100),
  description text,
  valid_from timestamptz,
  valid_until timestamptz,
  active boolean not null default true,
  max_uses integer check (max_uses is null or max_uses > 0),
  owner_user_id uuid references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  check ((kind = 'referral') = (owner_user_id is not null)),
  check (valid_until is null or valid_from is null or valid_until > valid_from)
);
create unique index coupons_one_referral_per_owner on coupons (owner_user_id) where kind = 'referral';

-- Small key/value settings the founder can change at run time (e.g. which coupon drives the banner).
create table site_settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now()
);

-- Seed data from the spec (§1, §9): FIRSTWEB25, 20 % off, until 31 January 2025 23:59:59 UTC.
insert into coupons (code, kind, percent, description, valid_until)
values ('FIRSTWEB25', 'promo', 20, 'NEW YEAR, NEW WEBSITE', '2025-01-31 23:59:59+00');
insert into site_settings (key, value) values ('featured_promotion', '{"couponCode": "FIRSTWEB25"}');
