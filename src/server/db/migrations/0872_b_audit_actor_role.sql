-- Decision 191: the audit log names who did what, and in which role. Kept beside the
-- e-mail so the role survives a later change or removal of the person from the staff.
alter table admin_audit_log add column actor_role text check (actor_role in ('customer', 'staff', 'admin'));
-- Every earlier entry was the owner's: there were no staff before this migration.
update admin_audit_log set actor_role = 'admin';
