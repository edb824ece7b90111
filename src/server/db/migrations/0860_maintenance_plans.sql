-- The maintenance plan (decision 175): a monthly Razorpay subscription per
-- delivered order, its charges, and a tax invoice per charge.

-- A Razorpay plan is created once per price and remembered (POST /v1/plans is not idempotent).
create table maintenance_provider_plans (
  provider text not null check (provider in ('razorpay', 'test')),
  currency text not null,
  amount bigint not null check (amount > 0),
  provider_plan_id text not null,
  created_at timestamptz not null default now(),
  primary key (provider, currency, amount)
);

create table maintenance_subscriptions (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  provider text not null check (provider in ('razorpay', 'test')),
  -- Taken with a test key: its charges are invoiced in the TEST series (decision 120).
  test_mode boolean not null default false,
  provider_subscription_id text not null unique,
  provider_plan_id text not null,
  currency text not null,
  amount bigint not null check (amount > 0),
  state text not null default 'created'
    check (state in ('created', 'authenticated', 'active', 'pending', 'halted', 'cancelled', 'completed')),
  -- The provider time (event created_at) of the change that set `state`: an older event never
  -- moves the state (out-of-order webhooks).
  state_at timestamptz,
  cancel_at_period_end boolean not null default false,
  -- The end of the period paid for: support extends to it (the support window's extension).
  paid_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index maintenance_subscriptions_order_idx on maintenance_subscriptions (order_id, created_at);
-- At most one subscription per order that is not over (a second subscribe reuses or refuses).
create unique index maintenance_subscriptions_live_uidx on maintenance_subscriptions (order_id)
  where state not in ('cancelled', 'completed');

-- One row per charged payment: the payment id is the idempotency key of a charge.
create table maintenance_charges (
  id uuid primary key default gen_random_uuid(),
  subscription_id uuid not null references maintenance_subscriptions(id) on delete cascade,
  provider_payment_id text not null unique,
  amount bigint not null check (amount > 0),
  currency text not null,
  period_start timestamptz not null,
  period_end timestamptz not null check (period_end > period_start),
  charged_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index maintenance_charges_subscription_idx on maintenance_charges (subscription_id, charged_at);

-- A charge's invoice: the invoice names it (installment_id stays null for these).
alter table invoices add column maintenance_charge_id uuid references maintenance_charges(id) on delete set null;
create unique index invoices_maintenance_charge_uidx on invoices (maintenance_charge_id) where series in ('invoice', 'test_invoice');
