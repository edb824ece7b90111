-- Abandoned-checkout follow-up: one friendly e-mail per customer for an advance
-- checkout left unpaid (at most one per retention period). order_id is not a foreign key: the
-- draft is deleted after the retention period and this row still says the customer was mailed.
create table checkout_followups (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  order_public_id text not null unique,
  coupon_code text,
  sent_at timestamptz not null
);
create index checkout_followups_user_idx on checkout_followups (user_id, sent_at desc);
create index orders_drafts_idx on orders (created_at) where state = 'awaiting_advance';
