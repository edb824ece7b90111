-- Orders and money. Amounts are integer minor units with their ISO currency.
-- An order row is written when the advance checkout starts (state 'awaiting_advance', invisible to
-- the customer) and becomes 'in_progress' only when a verified payment pays the advance.
create table orders (
  id uuid primary key default gen_random_uuid(),
  public_id text not null unique,
  user_id uuid not null references users(id) on delete cascade,
  plan_id text not null,
  currency text not null,
  list_price bigint not null check (list_price >= 0),
  price bigint not null check (price >= 0),
  discount_percent integer not null default 0 check (discount_percent between 0 and 100),
  discount bigint not null default 0 check (discount >= 0),
  fee bigint not null check (fee >= 0),
  total bigint not null check (total >= 0),
  coupon_id uuid references coupons(id) on delete set null,
  coupon_code text,
  referrer_user_id uuid references users(id) on delete set null,
  state text not null default 'awaiting_advance' check (state in ('awaiting_advance', 'in_progress', 'paid', 'delivered')),
  delivery_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index orders_user_idx on orders (user_id, created_at desc);
create index orders_referrer_idx on orders (referrer_user_id) where referrer_user_id is not null;

create table installments (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  kind text not null check (kind in ('advance', 'remaining')),
  amount bigint not null check (amount >= 0),
  currency text not null,
  state text not null default 'due' check (state in ('due', 'pending', 'paid')),
  provider_payment_id text,
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  unique (order_id, kind)
);

-- One provider order per checkout attempt of an installment.
create table payment_attempts (
  id uuid primary key default gen_random_uuid(),
  installment_id uuid not null references installments(id) on delete cascade,
  provider text not null check (provider in ('razorpay', 'test')),
  provider_order_id text not null unique,
  amount bigint not null,
  currency text not null,
  receipt text not null,
  state text not null default 'created' check (state in ('created', 'paid', 'duplicate')),
  provider_payment_id text,
  paid_at timestamptz,
  created_at timestamptz not null default now()
);
create index payment_attempts_installment_idx on payment_attempts (installment_id);
create index payment_attempts_open_idx on payment_attempts (created_at) where state = 'created';

-- Webhook idempotency: one row per provider event id.
create table payment_events (
  provider text not null,
  event_id text not null,
  event_type text not null,
  provider_order_id text,
  outcome text not null,
  received_at timestamptz not null default now(),
  primary key (provider, event_id)
);

create table order_stages (
  order_id uuid not null references orders(id) on delete cascade,
  stage integer not null check (stage between 1 and 15),
  completed_at timestamptz not null default now(),
  note text,
  actor_user_id uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (order_id, stage)
);

-- One code per order (exactly one redemption row per paid advance that used a code).
create table coupon_redemptions (
  id uuid primary key default gen_random_uuid(),
  coupon_id uuid not null references coupons(id) on delete cascade,
  order_id uuid not null unique references orders(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  discount bigint not null,
  currency text not null,
  created_at timestamptz not null default now()
);
create index coupon_redemptions_coupon_idx on coupon_redemptions (coupon_id);

create table cashback (
  id uuid primary key default gen_random_uuid(),
  referrer_user_id uuid not null references users(id) on delete cascade,
  order_id uuid not null unique references orders(id) on delete cascade,
  amount bigint not null check (amount >= 0),
  currency text not null,
  state text not null default 'pending' check (state in ('pending', 'earned', 'paid')),
  earned_at timestamptz,
  paid_at timestamptz,
  created_at timestamptz not null default now()
);
create index cashback_referrer_idx on cashback (referrer_user_id, created_at desc);
