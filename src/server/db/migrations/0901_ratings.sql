-- Ratings (docs/decisions/214-ratings.md): a customer rates a resolved support request once, and a
-- delivered order once ("How did we do?"). One table, so the founder's list and the 90-day average
-- read one place.
create table ratings (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('support', 'order')),
  order_id uuid not null references orders(id) on delete cascade,
  support_request_id uuid references support_requests(id) on delete cascade,
  user_id uuid references users(id) on delete set null,
  score integer not null check (score between 1 and 5),
  comment text,
  may_quote boolean not null default false,
  created_at timestamptz not null default now(),
  check ((kind = 'support') = (support_request_id is not null))
);
create unique index ratings_order_once on ratings (order_id) where kind = 'order';
create unique index ratings_request_once on ratings (support_request_id) where kind = 'support';
create index ratings_created_idx on ratings (created_at);
