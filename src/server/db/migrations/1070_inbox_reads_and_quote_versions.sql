-- What waits for the agency (docs/decisions/330-agency-inbox-kinds.md): a submitted brief waits
-- until someone on the agency side opens it, whenever it arrives.
alter table order_briefs add column agency_read_at timestamptz;
-- Briefs the agency already worked on ("UI Started" completed) count as read.
update order_briefs b set agency_read_at = b.submitted_at
 where b.submitted_at is not null and exists (select 1 from order_stages s where s.order_id = b.order_id and s.stage = 3);

-- A change's price is fixed when its checkout opens (docs/decisions/332-change-quote-version.md):
-- every quote bumps the change's version; a change's checkout records the version it was opened at,
-- and a payment for another version is refunded, never accepted.
alter table order_changes add column quote_version integer not null default 0 check (quote_version >= 0);
update order_changes set quote_version = 1 where quoted_at is not null;
alter table payment_attempts add column quote_version integer check (quote_version is null or quote_version >= 1);
