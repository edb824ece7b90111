-- Change requests on an order and the add-ons catalogue (decision 250): a change is asked, quoted
-- (amount + extra days), accepted by paying it through the installments' checkout, or declined,
-- withdrawn, or done at no charge ("included"). Add-ons are quotes prepared in advance.

create table addons (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 80),
  description text not null default '' check (length(description) <= 500),
  -- In minor units of the base currency (USD cents); converted like the plan price.
  price bigint not null check (price > 0 and price <= 100000000),
  extra_days integer not null default 0 check (extra_days between 0 and 90),
  active boolean not null default true,
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

insert into addons (name, description, price, extra_days, position) values
  ('Advanced SEO', 'Keyword research, on-page optimisation of every page, structured data and a search-console setup.', 19900, 5, 1),
  ('10 extra screens', 'Ten more pages or screens designed and built in the style of your website.', 29900, 10, 2);

create table order_changes (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  title text not null check (length(title) between 1 and 120),
  description text not null default '' check (length(description) <= 4000),
  file_ids uuid[] not null default '{}',
  state text not null default 'requested' check (state in ('requested', 'quoted', 'accepted', 'declined', 'withdrawn', 'included')),
  -- Tax excluded, in minor units of the order's currency; null until quoted.
  amount bigint check (amount >= 0),
  currency text not null,
  extra_days integer not null default 0 check (extra_days between 0 and 90),
  note text check (length(note) <= 1000),
  addon_id uuid references addons(id) on delete set null,
  created_by text not null check (created_by in ('customer', 'agency')),
  created_by_user_id uuid references users(id) on delete set null,
  decline_reason text check (length(decline_reason) <= 1000),
  quoted_at timestamptz,
  decided_at timestamptz,
  paid_at timestamptz,
  -- "I agree to this change" (like the checkout's terms, decision 146): when, which wording, which client.
  accepted_at timestamptz,
  accepted_wording_hash text,
  accepted_client_hash text,
  created_at timestamptz not null default now(),
  check ((state in ('quoted', 'accepted')) <= (amount is not null and amount > 0))
);
create index order_changes_order_idx on order_changes (order_id, created_at);
create index order_changes_waiting_idx on order_changes (state) where state in ('requested', 'quoted');

-- A change is paid as an installment of kind 'change' (one per change), so the checkout, the
-- verification, the webhook, reconciliation and duplicate refunds work for it unchanged.
alter table installments drop constraint installments_kind_check;
alter table installments add constraint installments_kind_check check (kind in ('advance', 'remaining', 'change'));
alter table installments drop constraint installments_order_id_kind_key;
create unique index installments_order_plan_kind_key on installments (order_id, kind) where kind in ('advance', 'remaining');
alter table installments add column change_id uuid unique references order_changes(id) on delete cascade;
alter table installments add constraint installments_change_check check ((kind = 'change') = (change_id is not null));

-- The working days paid changes added to the delivery: added to the due date when the UI approval sets it.
alter table orders add column change_days integer not null default 0 check (change_days >= 0);
