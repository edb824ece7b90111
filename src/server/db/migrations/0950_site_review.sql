-- Reviewing the live site (decision 240 the token, decision 241 the pins). A round may point at a
-- staging site with no files; its pins then carry a page, a CSS selector and the point inside the
-- element instead of a file.

-- The origins of an order's preview links: only these may talk to the site-review API for it
-- (https, or http://localhost / 127.0.0.1 for development).
create table order_review_origins (
  order_id uuid not null references orders(id) on delete cascade,
  origin text not null check (char_length(origin) <= 300 and origin ~ '^(https://[^/]+|http://(localhost|127\.0\.0\.1)(:[0-9]+)?)$'),
  created_at timestamptz not null default now(),
  primary key (order_id, origin)
);
create index order_review_origins_by_origin on order_review_origins (origin);

-- A capability for one round, one person, comments only. Only the SHA-256 of the token is kept.
create table order_review_site_tokens (
  id uuid primary key default gen_random_uuid(),
  review_id uuid not null references order_reviews(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  author text not null check (author in ('customer', 'agency')),
  token_hash text not null unique check (char_length(token_hash) = 64),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index order_review_site_tokens_by_review on order_review_site_tokens (review_id);

-- Site pins: no file; the page, the element and where on it.
alter table order_review_comments alter column file_id drop not null;
alter table order_review_comments
  add column page_url text check (page_url is null or char_length(page_url) <= 2000),
  add column selector text check (selector is null or char_length(selector) <= 1000),
  add column viewport_width integer check (viewport_width is null or viewport_width between 1 and 20000),
  add column viewport_height integer check (viewport_height is null or viewport_height between 1 and 20000),
  add column viewport_dpr double precision check (viewport_dpr is null or (viewport_dpr > 0 and viewport_dpr <= 10)),
  add column browser text check (browser is null or char_length(browser) <= 200),
  add column screenshot_file_id uuid references order_files(id) on delete set null;
-- A pin is on a file or on a page (an answer copies its pin's place).
alter table order_review_comments add constraint order_review_comments_file_or_page
  check ((file_id is not null) or (page_url is not null and selector is not null and viewport_width is not null and viewport_height is not null and viewport_dpr is not null));
