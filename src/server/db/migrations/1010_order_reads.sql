-- What the signed-in reads show of an order beside its own row, kept ready so that each read is
-- index lookups by key with no aggregate (docs/decisions/317-order-reads-table.md): the completed
-- stages, the notice kinds waiting per side, the unread message counts per side and the maintenance
-- plan. Each value is recomputed from its source table by a DEFERRED constraint trigger, which runs
-- at commit: it locks only this table's row of the order (no code locks these rows), then recomputes
-- with a fresh snapshot, so a concurrent commit is seen and no lock cycle with the app's own locks
-- (orders, claims) can form (docs/decisions/316-order-read-columns.md).

-- No foreign key to orders, on purpose: a second update of a row in one transaction re-checks the
-- key, and that check's share lock on the order row would wait for whoever holds the order
-- (a checkout, a subscribe) — the lock cycle this table exists to avoid. A trigger deletes the row
-- with its order instead.
create table order_reads (
  order_id uuid primary key,
  -- The completed stages as [[stage, completed at in epoch ms, note], …] by stage (arrays and a
  -- number: the cheapest json for the reader to parse), their count and the delivery (stage 15,
  -- domain/tracker.ts DELIVERY_STAGE).
  stages json not null default '[]',
  stage_count integer not null default 0,
  delivered_at timestamptz,
  -- Kinds of the notices neither read nor mailed yet, per recipient (features/notices).
  waiting_customer text[] not null default '{}',
  waiting_agency text[] not null default '{}',
  -- Messages of the other side after the side's read marker (features/order-messages/unread.ts).
  unread_customer integer not null default 0,
  unread_agency integer not null default 0,
  -- The maintenance plan as the support page shows it and the end of the period paid over all of
  -- the order's plans (features/maintenance/plan-queries.ts).
  plan json,
  covered_until timestamptz,
  -- Moves on every commit that changes the order, its installments, its support requests, the name
  -- of a user it shows or any value above: a reader that kept an answer with the version it was read at may answer it again
  -- while the version is the same (docs/decisions/317-order-reads-table.md).
  version bigint not null default 0
);

-- The row comes and goes with the order (immediate, inside the order's own transaction), so the
-- deferred triggers below only ever update. A restore loads order_reads before orders, hence
-- `do nothing`.
create function order_reads_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then insert into order_reads (order_id) values (new.id) on conflict do nothing;
  else delete from order_reads where order_id = old.id;
  end if;
  return null;
end $$;
create trigger order_reads_follow after insert or delete on orders for each row execute function order_reads_follow();

-- Each part of the row from its source table, for one order. Plain statements: the trigger below
-- locks the row and moves the version first.
create function order_reads_stages(target uuid) returns void language sql as $$
  update order_reads set
    stages = (select coalesce(json_agg(json_build_array(s.stage, floor(extract(epoch from s.completed_at) * 1000)::bigint, s.note) order by s.stage), '[]'::json)
                from order_stages s where s.order_id = target),
    stage_count = (select count(*) from order_stages s where s.order_id = target),
    delivered_at = (select s.completed_at from order_stages s where s.order_id = target and s.stage = 15)
   where order_id = target;
$$;

create function order_reads_notices(target uuid) returns void language sql as $$
  update order_reads set
    waiting_customer = array(select distinct n.kind from notices n
                              where n.order_id = target and n.recipient = 'customer' and n.read_at is null and n.sent_at is null order by 1),
    waiting_agency = array(select distinct n.kind from notices n
                            where n.order_id = target and n.recipient = 'agency' and n.read_at is null and n.sent_at is null order by 1)
   where order_id = target;
$$;

create function order_reads_messages(target uuid) returns void language sql as $$
  update order_reads set
    unread_customer = (select count(*) from order_messages m where m.order_id = target and m.sender = 'agency'
                         and m.seq > coalesce((select r.last_read_seq from order_message_reads r where r.order_id = target and r.side = 'customer'), 0)),
    unread_agency = (select count(*) from order_messages m where m.order_id = target and m.sender = 'customer'
                       and m.seq > coalesce((select r.last_read_seq from order_message_reads r where r.order_id = target and r.side = 'agency'), 0))
   where order_id = target;
$$;

-- The newest subscription gives the plan unless it is only `created` (maintenanceSupportExtension's
-- rule: the first charge's date while it waits for the included year); the latest end paid over all
-- of them gives `covered_until`.
create function order_reads_plan(target uuid) returns void language sql as $$
  update order_reads set
    plan = (select case when s.state <> 'created' then json_build_object('state', s.state, 'currentPeriodEnd', s.paid_until, 'cancelAtPeriodEnd', s.cancel_at_period_end,
                                                                         'startsAt', case when s.paid_until is null then s.starts_at end) end
              from maintenance_subscriptions s where s.order_id = target order by s.created_at desc limit 1),
    covered_until = (select case when s.state <> 'created' then (select max(p.paid_until) from maintenance_subscriptions p where p.order_id = target) end
                       from maintenance_subscriptions s where s.order_id = target order by s.created_at desc limit 1)
   where order_id = target;
$$;

-- Locks the order's row (nothing when the order is gone), moves its version, and recomputes the part
-- the changed table feeds — each a new statement, so with a fresh snapshot taken after the lock.
create function order_reads_refresh(target uuid, source text) returns void language plpgsql as $$
begin
  perform 1 from order_reads where order_id = target for update;
  if not found then return; end if;
  update order_reads set version = version + 1 where order_id = target;
  if source = 'order_stages' then perform order_reads_stages(target);
  elsif source = 'notices' then perform order_reads_notices(target);
  elsif source in ('order_messages', 'order_message_reads') then perform order_reads_messages(target);
  elsif source = 'maintenance_subscriptions' then perform order_reads_plan(target);
  end if;
end $$;

-- The trigger function for every source table: the changed row's order, at commit. The order's own
-- row, its installments and its support requests only move the version.
create function order_reads_changed() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'orders' then perform order_reads_refresh(new.id, tg_table_name);
  elsif tg_op = 'DELETE' then perform order_reads_refresh(old.order_id, tg_table_name);
  else perform order_reads_refresh(new.order_id, tg_table_name);
  end if;
  return null;
end $$;

create constraint trigger order_reads_orders after update on orders
  deferrable initially deferred for each row execute function order_reads_changed();
do $$
declare
  source text;
begin
  foreach source in array array['installments', 'support_requests', 'order_stages', 'notices', 'order_messages', 'order_message_reads', 'maintenance_subscriptions'] loop
    execute format('create constraint trigger %I after insert or update or delete on %I
                      deferrable initially deferred for each row execute function order_reads_changed()', 'order_reads_' || source, source);
  end loop;
end $$;

-- A renamed user's name is shown in the threads they wrote in and on their own orders: those orders'
-- versions move (rare; the orders are taken in order of id).
create function order_reads_user_renamed() returns trigger language plpgsql as $$
declare
  target uuid;
begin
  for target in select o.id from orders o where o.user_id = new.id
                union select m.order_id from order_messages m where m.sender_user_id = new.id
                order by 1 loop
    perform order_reads_refresh(target, 'users');
  end loop;
  return null;
end $$;
create constraint trigger order_reads_user_renamed after update of name on users
  deferrable initially deferred for each row when (old.name is distinct from new.name) execute function order_reads_user_renamed();

-- The orders there are now.
insert into order_reads (order_id) select id from orders;
select order_reads_stages(id), order_reads_notices(id), order_reads_messages(id), order_reads_plan(id) from orders;
