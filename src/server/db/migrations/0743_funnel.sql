-- Cookieless conversion funnel (decision 097). No cookie and no IP address is stored:
-- a visitor is sha256(daily salt ‖ IP ‖ user agent), and each day's salt is random and deleted
-- after two days, so yesterday's hashes can no longer be linked to anyone.
create table funnel_salts (
  day date primary key,
  salt text not null
);

create table page_views (
  id bigserial primary key,
  day date not null,
  visitor text not null,
  path text not null check (length(path) <= 200),
  utm_source text check (length(utm_source) <= 100),
  utm_medium text check (length(utm_medium) <= 100),
  utm_campaign text check (length(utm_campaign) <= 100),
  referrer_host text check (length(referrer_host) <= 100),
  created_at timestamptz not null default now()
);
create index page_views_day_idx on page_views (day, visitor);
