-- Remaining-payment reminders. Jobs are rows: they survive restarts, and each
-- instance claims a due row with FOR UPDATE SKIP LOCKED, sends it and marks it in one
-- transaction (the e-mail goes into mail_outbox in that same transaction), so a job runs once.
create table payment_reminders (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders(id) on delete cascade,
  -- 0 = "remaining amount due" on stage 13; 1..n = reminders; the last step tells the founder.
  step integer not null check (step >= 0),
  kind text not null check (kind in ('due', 'reminder', 'founder')),
  due_at timestamptz not null,
  state text not null default 'pending' check (state in ('pending', 'sent', 'cancelled', 'skipped')),
  -- Why it was not sent: 'paid' (captured first) or 'superseded' (a later step was due too).
  reason text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  unique (order_id, step)
);
create index payment_reminders_due_idx on payment_reminders (due_at) where state = 'pending';

-- The founder paused the reminders of an order (pending jobs wait until resumed).
create table reminder_pauses (
  order_id uuid primary key references orders(id) on delete cascade,
  paused_by uuid references users(id) on delete set null,
  paused_at timestamptz not null default now()
);
