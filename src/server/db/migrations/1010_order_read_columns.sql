-- What the customer's hot reads need from other tables, kept on the order by the database in the
-- writing transaction (docs/decisions/316-order-read-columns.md). Derived only: order_stages,
-- notices, order_messages and maintenance_subscriptions stay the truth, and no code writes these
-- columns. Each refresh locks the order row first, so that two transactions changing the same order
-- take turns and the second counts what the first committed (each statement of a function reads a
-- fresh snapshot under READ COMMITTED).

-- The completed stages as `[[stage, completed_at in epoch milliseconds (truncated, as a JS Date),
-- note], …]` in stage order.
alter table orders add column stage_log json not null default '[]';
-- The kinds of the order's notices each side has neither read in the app nor been mailed (what
-- notices_waiting indexes), sorted.
alter table orders add column waiting_notices_customer text[] not null default '{}';
alter table orders add column waiting_notices_agency text[] not null default '{}';
-- Messages of the other side after each side's read marker (order_message_reads).
alter table orders add column unread_messages_customer integer not null default 0;
alter table orders add column unread_messages_agency integer not null default 0;
-- The maintenance plan as the support window sees it: null when the newest subscription is only
-- `created` or there is none; otherwise its state, the end of its paid period, whether it ends
-- there and when it starts (json, as features/maintenance/plan-queries.ts reads it), and the latest
-- end paid over all the order's subscriptions.
alter table orders add column plan_view json;
alter table orders add column plan_covered_until timestamptz;

create function orders_refresh_stage_log(target uuid) returns void language plpgsql as $$
declare
  fresh json;
begin
  perform 1 from orders where id = target for update;
  select coalesce(json_agg(json_build_array(s.stage, (extract(epoch from date_trunc('milliseconds', s.completed_at)) * 1000)::int8, s.note) order by s.stage), '[]'::json)
    into fresh from order_stages s where s.order_id = target;
  update orders set stage_log = fresh where id = target and stage_log::text is distinct from fresh::text;
end $$;

create function orders_refresh_waiting_notices(target uuid) returns void language plpgsql as $$
declare
  for_customer text[];
  for_agency text[];
begin
  perform 1 from orders where id = target for update;
  select coalesce(array_agg(distinct n.kind order by n.kind) filter (where n.recipient = 'customer'), '{}'),
         coalesce(array_agg(distinct n.kind order by n.kind) filter (where n.recipient = 'agency'), '{}')
    into for_customer, for_agency
    from notices n where n.order_id = target and n.read_at is null and n.sent_at is null;
  update orders set waiting_notices_customer = for_customer, waiting_notices_agency = for_agency
   where id = target and (waiting_notices_customer, waiting_notices_agency) is distinct from (for_customer, for_agency);
end $$;

create function orders_refresh_unread_messages(target uuid) returns void language plpgsql as $$
declare
  for_customer integer;
  for_agency integer;
begin
  perform 1 from orders where id = target for update;
  select count(*) filter (where m.sender = 'agency' and m.seq > coalesce((select r.last_read_seq from order_message_reads r where r.order_id = target and r.side = 'customer'), 0)),
         count(*) filter (where m.sender = 'customer' and m.seq > coalesce((select r.last_read_seq from order_message_reads r where r.order_id = target and r.side = 'agency'), 0))
    into for_customer, for_agency
    from order_messages m where m.order_id = target;
  update orders set unread_messages_customer = for_customer, unread_messages_agency = for_agency
   where id = target and (unread_messages_customer, unread_messages_agency) is distinct from (for_customer, for_agency);
end $$;

create function orders_refresh_plan(target uuid) returns void language plpgsql as $$
declare
  fresh_view json;
  fresh_covered timestamptz;
begin
  perform 1 from orders where id = target for update;
  select case when s.state <> 'created' then json_build_object('state', s.state, 'currentPeriodEnd', s.paid_until, 'cancelAtPeriodEnd', s.cancel_at_period_end,
                                                                'startsAt', case when s.paid_until is null then s.starts_at end) end,
         case when s.state <> 'created' then (select max(p.paid_until) from maintenance_subscriptions p where p.order_id = target) end
    into fresh_view, fresh_covered
    from maintenance_subscriptions s where s.order_id = target order by s.created_at desc limit 1;
  update orders set plan_view = fresh_view, plan_covered_until = fresh_covered
   where id = target and (plan_view::text, plan_covered_until) is distinct from (fresh_view::text, fresh_covered);
end $$;

-- One trigger function for the four tables: each names its refresh as the trigger's argument.
create function orders_read_columns_follow() returns trigger language plpgsql as $$
declare
  target uuid;
begin
  if tg_op = 'DELETE' then target := old.order_id; else target := new.order_id; end if;
  case tg_argv[0]
    when 'stage_log' then perform orders_refresh_stage_log(target);
    when 'waiting_notices' then perform orders_refresh_waiting_notices(target);
    when 'unread_messages' then perform orders_refresh_unread_messages(target);
    when 'plan' then perform orders_refresh_plan(target);
  end case;
  return null;
end $$;

create trigger orders_stage_log after insert or update or delete on order_stages
  for each row execute function orders_read_columns_follow('stage_log');
create trigger orders_waiting_notices after insert or update of read_at, sent_at or delete on notices
  for each row execute function orders_read_columns_follow('waiting_notices');
create trigger orders_unread_messages after insert or delete on order_messages
  for each row execute function orders_read_columns_follow('unread_messages');
create trigger orders_unread_messages after insert or update or delete on order_message_reads
  for each row execute function orders_read_columns_follow('unread_messages');
create trigger orders_plan after insert or update or delete on maintenance_subscriptions
  for each row execute function orders_read_columns_follow('plan');

-- The orders already there.
select orders_refresh_stage_log(id), orders_refresh_waiting_notices(id), orders_refresh_unread_messages(id), orders_refresh_plan(id) from orders;
