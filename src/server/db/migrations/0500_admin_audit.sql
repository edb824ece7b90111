-- Back office: the audit log of every admin action — who, what, when, before/after.
-- Rows are only ever inserted; nothing in the app updates or deletes them.
create table admin_audit_log (
  id uuid primary key default gen_random_uuid(),
  -- "set null" keeps the history when an account is deleted; actor_email still says who it was.
  actor_user_id uuid references users(id) on delete set null,
  actor_email text not null,
  action text not null check (length(action) between 1 and 80),
  entity text not null check (length(entity) between 1 and 40),
  entity_id text check (entity_id is null or length(entity_id) <= 200),
  before jsonb,
  after jsonb,
  created_at timestamptz not null default now()
);
-- The list is newest first, optionally filtered by one of these columns.
create index admin_audit_log_created_idx on admin_audit_log (created_at desc, id desc);
create index admin_audit_log_entity_idx on admin_audit_log (entity, entity_id, created_at desc);
create index admin_audit_log_actor_idx on admin_audit_log (actor_user_id, created_at desc);
create index admin_audit_log_action_idx on admin_audit_log (action, created_at desc);
