import { sql } from 'drizzle-orm';
import type { AuditAction, AuditEntity } from '../../contract/admin.ts';
import type { Db } from '../db/client.ts';
import { adminAuditLog } from '../db/schema/admin.ts';

// Every feature that changes something on an admin's behalf writes here (decision 088); the back
// office reads the log (features/admin/audit.ts). Kept out of the admin feature so that writing a
// record does not make a feature depend on the back office.

export interface AuditRecord {
  actorUserId: string;
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | null;
  before: unknown;
  after: unknown;
}

/**
 * Appends one admin action to the audit log. Call it with the same transaction as the change
 * itself, so that a change never happens without its record (and a failed change leaves none).
 */
export async function recordAudit(db: Db, r: AuditRecord): Promise<void> {
  await db.insert(adminAuditLog).values({
    actorUserId: r.actorUserId,
    // Kept beside the id so "who" survives the deletion of the account.
    actorEmail: sql`coalesce((select email from users where id = ${r.actorUserId}), 'unknown')`,
    // …and the role they acted in (owner or staff, decision 191), read in the same statement.
    actorRole: sql`(select role from users where id = ${r.actorUserId})`,
    action: r.action,
    entity: r.entity,
    entityId: r.entityId,
    before: r.before ?? null,
    after: r.after ?? null,
  });
}
