-- Web Push and notification preferences (docs/decisions/342-notification-preferences.md,
-- 343-web-push.md, 344-installable-app.md).

-- A person's choices. `channels` holds only what they changed ({"push": {"order_paid": false}}):
-- a kind not named there takes its default, so a kind added later starts at its default.
create table notification_preferences (
  user_id uuid primary key references users(id) on delete cascade,
  channels jsonb not null default '{}'::jsonb,
  quiet_start text not null default '22:00' check (quiet_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  quiet_end text not null default '08:00' check (quiet_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  time_zone text not null default 'Asia/Kolkata' check (char_length(time_zone) between 1 and 64),
  updated_at timestamptz not null default now()
);

-- One device's push subscription (the browser's PushSubscription). The endpoint is a capability of
-- the push service: one row per endpoint, moved to whoever subscribed it last on that device.
create table push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  endpoint text not null unique check (char_length(endpoint) between 9 and 2000),
  p256dh text not null check (char_length(p256dh) between 1 and 200),
  auth text not null check (char_length(auth) between 1 and 100),
  device_name text not null check (char_length(device_name) between 1 and 60),
  created_at timestamptz not null default now(),
  last_sent_at timestamptz
);
create index push_subscriptions_user on push_subscriptions (user_id);

-- What was pushed once: a notice pushed again (an event seen twice, a chat's second message) is skipped.
create table push_sent (
  user_id uuid not null references users(id) on delete cascade,
  dedupe_key text not null check (char_length(dedupe_key) between 1 and 200),
  created_at timestamptz not null default now(),
  primary key (user_id, dedupe_key)
);
