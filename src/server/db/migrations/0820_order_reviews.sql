-- Design reviews with pinned comments (decision 150). The founder opens a round
-- (kind ui or final, numbered per order and kind) on files of the order; the customer drops pins on
-- them and decides the round once: approve or request changes.
create table order_reviews (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  kind text not null check (kind in ('ui', 'final')),
  round integer not null check (round >= 1),
  title text not null check (char_length(title) between 1 and 120),
  note text check (note is null or char_length(note) <= 4000),
  preview_url text check (preview_url is null or (char_length(preview_url) <= 2000 and preview_url ~* '^https?://')),
  state text not null default 'open' check (state in ('open', 'approved', 'changes_requested')),
  opened_by_user_id uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  decided_at timestamptz,
  -- A round is open exactly while it has no decision time.
  check ((state = 'open') = (decided_at is null)),
  unique (order_id, kind, round)
);
-- One open round per order and kind: the customer's decision is never ambiguous.
create unique index order_reviews_one_open on order_reviews (order_id, kind) where state = 'open';

-- The files of a round, in the founder's order. A file named here cannot be deleted (the
-- order-files in-use check says why; the foreign key is the backstop).
create table order_review_files (
  review_id uuid not null references order_reviews(id) on delete cascade,
  file_id uuid not null references order_files(id),
  position integer not null,
  primary key (review_id, file_id)
);
create index order_review_files_by_file on order_review_files (file_id);

-- Pins: a point on one of the round's files, as fractions of its width and height (0..1), so it
-- survives any display size. NaN fails the range check too.
create table order_review_comments (
  id uuid primary key default gen_random_uuid(),
  review_id uuid not null references order_reviews(id) on delete cascade,
  file_id uuid not null,
  x double precision not null check (x >= 0 and x <= 1),
  y double precision not null check (y >= 0 and y <= 1),
  text text not null check (char_length(text) between 1 and 2000),
  author text not null check (author in ('customer', 'agency')),
  author_user_id uuid references users(id) on delete set null,
  -- The founder's answer names the pin it answers.
  reply_to uuid references order_review_comments(id) on delete cascade,
  resolved_at timestamptz,
  resolved_by_user_id uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  foreign key (review_id, file_id) references order_review_files (review_id, file_id) on delete cascade
);
create index order_review_comments_by_review on order_review_comments (review_id, created_at);

-- The decision of a round, as a record: who, when, which round (the review), and which files
-- exactly (id, name, sha-256 at that moment). One per round: the primary key is the backstop of
-- the conditional update that lets exactly one of two racing decisions win.
create table order_review_decisions (
  review_id uuid primary key references order_reviews(id) on delete cascade,
  decision text not null check (decision in ('approve', 'request_changes')),
  comment text check (comment is null or char_length(comment) <= 2000),
  decided_by_user_id uuid references users(id) on delete set null,
  decided_at timestamptz not null,
  files jsonb not null
);
