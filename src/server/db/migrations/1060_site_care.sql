-- Site care (docs/decisions/325-site-checks-in-the-job-pass.md, 326-site-incidents-and-mails.md,
-- 327-care-reports.md): the delivered site is watched (uptime, certificate, domain), incidents are
-- raised, and a monthly care report is written per watched order.

-- What the agency and the customer chose per order: the owner may keep watching an order that
-- neither support nor the plan covers; the customer may switch the incident mails off.
create table site_care_orders (
  order_id uuid primary key references orders(id) on delete cascade,
  keep_watching boolean not null default false,
  customer_mails boolean not null default true,
  updated_at timestamptz not null default now()
);

-- One watched URL. The delivery link's row has no url of its own: it follows orders.delivery_url.
create table watched_sites (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  url text check (url is null or char_length(url) between 1 and 2000),
  is_delivery_link boolean not null default false,
  expect_text text check (expect_text is null or char_length(expect_text) between 1 and 200),
  added_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  -- Watched while support or the plan covers the order, or the owner keeps it; else stopped with a note.
  watching boolean not null default true,
  stopped_note text,
  -- The check's schedule: the start time is spread over the interval; a claim moves it one interval on.
  next_check_at timestamptz not null,
  next_daily_at timestamptz not null default now(),
  state text not null default 'unknown' check (state in ('unknown', 'up', 'down')),
  fail_streak integer not null default 0,
  last_checked_at timestamptz,
  last_status integer,
  last_error text,
  cert_valid_to timestamptz,
  cert_warned_days integer,
  domain_name text,
  domain_expires_at timestamptz,
  domain_warned_days integer,
  -- Who renews the domain: the customer also hears of its expiry when it is theirs.
  domain_renewed_by text not null default 'agency' check (domain_renewed_by in ('agency', 'customer')),
  -- At most one up/down mail per 30 minutes (a flapping site): the state last mailed and when.
  alert_state text not null default 'up' check (alert_state in ('up', 'down')),
  alert_mailed_at timestamptz,
  check (is_delivery_link or url is not null)
);
create unique index watched_sites_delivery_link on watched_sites (order_id) where is_delivery_link;
create index watched_sites_by_order on watched_sites (order_id, created_at);
create index watched_sites_due on watched_sites (next_check_at) where watching;
create index watched_sites_daily_due on watched_sites (next_daily_at) where watching;

-- Raw results, kept 90 days.
create table site_check_results (
  id bigint generated always as identity primary key,
  site_id uuid not null references watched_sites(id) on delete cascade,
  scheduled_at timestamptz not null,
  checked_at timestamptz not null,
  ok boolean not null,
  status integer not null,
  ttfb_ms integer,
  total_ms integer not null,
  cause text check (cause in ('status', 'timeout', 'text', 'certificate', 'connection', 'address'))
);
create index site_check_results_by_site on site_check_results (site_id, checked_at);
create index site_check_results_by_time on site_check_results (checked_at);

-- Daily roll-ups in INVOICE_TIME_ZONE days, kept as long as the site (and so the order).
-- checks and failures are counted as results arrive; the percentiles once the day is over.
create table site_check_days (
  site_id uuid not null references watched_sites(id) on delete cascade,
  day date not null,
  checks integer not null default 0,
  failures integer not null default 0,
  p50_ms integer,
  p95_ms integer,
  primary key (site_id, day)
);

create table site_incidents (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references watched_sites(id) on delete cascade,
  cause text not null check (cause in ('status', 'timeout', 'text', 'certificate', 'connection', 'address')),
  started_at timestamptz not null,
  ended_at timestamptz,
  check (ended_at is null or ended_at >= started_at)
);
create unique index site_incidents_one_open on site_incidents (site_id) where ended_at is null;
create index site_incidents_by_site on site_incidents (site_id, started_at);

-- One care report per order, month and kind: the month's own (written once the month is over) and a
-- "so far" report the owner may run during the month. Written once; re-running replaces nothing.
create table care_reports (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  month text not null check (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  partial boolean not null default false,
  data jsonb not null,
  created_at timestamptz not null default now(),
  unique (order_id, month, partial)
);

-- Work done once for all instances: the last day whose percentiles were rolled up and raw results
-- pruned, and the last month whose reports were written by the schedule.
create table site_care_marks (
  name text primary key,
  value text not null,
  updated_at timestamptz not null default now()
);

-- Orders delivered before this migration watch their delivery link from now on, spread over 5 minutes.
insert into watched_sites (order_id, is_delivery_link, next_check_at)
select o.id, true, now() + random() * interval '300 seconds'
  from orders o
 where o.state = 'delivered' and o.delivery_url is not null;
