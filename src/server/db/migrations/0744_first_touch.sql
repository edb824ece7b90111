-- First-touch source of a lead, contact message, sign-up and order (decision 097).
-- Copied on the server from the visitor's counted page views of today and yesterday (same daily
-- hash, no cookie, nothing sent by the browser). Plain text, at most 100 characters, never markup.
alter table leads
  add column first_utm_source text check (length(first_utm_source) <= 100),
  add column first_utm_medium text check (length(first_utm_medium) <= 100),
  add column first_utm_campaign text check (length(first_utm_campaign) <= 100),
  add column first_referrer_host text check (length(first_referrer_host) <= 100);
alter table contact_messages
  add column first_utm_source text check (length(first_utm_source) <= 100),
  add column first_utm_medium text check (length(first_utm_medium) <= 100),
  add column first_utm_campaign text check (length(first_utm_campaign) <= 100),
  add column first_referrer_host text check (length(first_referrer_host) <= 100);
alter table users
  add column first_utm_source text check (length(first_utm_source) <= 100),
  add column first_utm_medium text check (length(first_utm_medium) <= 100),
  add column first_utm_campaign text check (length(first_utm_campaign) <= 100),
  add column first_referrer_host text check (length(first_referrer_host) <= 100);
alter table orders
  add column first_utm_source text check (length(first_utm_source) <= 100),
  add column first_utm_medium text check (length(first_utm_medium) <= 100),
  add column first_utm_campaign text check (length(first_utm_campaign) <= 100),
  add column first_referrer_host text check (length(first_referrer_host) <= 100);

-- The funnel report reads page views per day and visitor, and events per week.
create index page_views_visitor_idx on page_views (visitor, id);
