-- Reminders after an undo (decision 098). Undoing stage 13 cancels the pending reminders; completing
-- it again plans a new round, so a step may exist once per round.
alter table payment_reminders add column round integer not null default 1 check (round >= 1);
alter table payment_reminders drop constraint payment_reminders_order_id_step_key;
alter table payment_reminders add constraint payment_reminders_order_round_step_key unique (order_id, round, step);

-- Pause history: every pause and resume of an order's reminders is kept. Written by a trigger on
-- reminder_pauses (the live switch), so whichever code pauses or resumes, the history follows;
-- who resumed is in the admin audit log (order.reminders.resume).
create table reminder_pause_history (
  id bigserial primary key,
  order_id uuid not null references orders(id) on delete cascade,
  paused_at timestamptz not null,
  paused_by uuid references users(id) on delete set null,
  resumed_at timestamptz
);
create index reminder_pause_history_order_idx on reminder_pause_history (order_id, paused_at);
insert into reminder_pause_history (order_id, paused_at, paused_by) select order_id, paused_at, paused_by from reminder_pauses;

create function reminder_pause_history_track() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into reminder_pause_history (order_id, paused_at, paused_by) values (new.order_id, new.paused_at, new.paused_by);
    return new;
  end if;
  update reminder_pause_history set resumed_at = now() where order_id = old.order_id and resumed_at is null;
  return old;
end $$;
create trigger reminder_pauses_history after insert or delete on reminder_pauses
  for each row execute function reminder_pause_history_track();
