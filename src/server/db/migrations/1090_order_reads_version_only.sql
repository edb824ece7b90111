-- The signed-in reads compute their derived values in their own statement again, each value by ONE
-- SQL form in the feature that owns it (docs/decisions/341-one-rule-per-derived-value.md): the
-- stages (features/tracker/stage-sql.ts), the waiting notices (features/notices/notices.ts), the
-- unread counts (features/order-messages/unread.ts) and the maintenance plan
-- (features/maintenance/plan-queries.ts). `order_reads` keeps only the order's `version`, which its
-- deferred triggers (migrations/1010_order_reads.sql, 1020_order_ledger.sql) still move on every
-- commit that changes what a read shows, so kept answers (lib/versioned-answers.ts) are read again.

-- The refresh now only locks the order's row and moves its version (same lock order as before: the
-- row first, at commit, so no lock cycle with the app's own locks forms; decision 317).
create or replace function order_reads_refresh(target uuid, source text) returns void language plpgsql as $$
begin
  perform 1 from order_reads where order_id = target for update;
  if not found then return; end if;
  update order_reads set version = version + 1 where order_id = target;
end $$;

drop function order_reads_stages(uuid);
drop function order_reads_notices(uuid);
drop function order_reads_messages(uuid);
drop function order_reads_plan(uuid);

alter table order_reads
  drop column stages,
  drop column stage_count,
  drop column delivered_at,
  drop column waiting_customer,
  drop column waiting_agency,
  drop column unread_customer,
  drop column unread_agency,
  drop column plan,
  drop column covered_until;

-- The indexes the forms read by: the unread count reads the other side's messages after a marker
-- from the index alone; the waiting notices by kind likewise (notices_waiting has no kind).
create index order_messages_by_order_sender on order_messages (order_id, sender, seq);
create index notices_waiting_kinds on notices (order_id, recipient, kind) where read_at is null and sent_at is null;
