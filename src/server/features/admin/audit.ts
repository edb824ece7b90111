import { and, count, desc, eq, gte, ilike, lt, type SQL } from 'drizzle-orm';
import type { AuditListResponse, AuditQuery } from '../../../contract/admin.ts';
import type { Db } from '../../db/client.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';

const dayAfter = (isoDate: string) => new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000);

export async function listAudit(db: Db, q: AuditQuery): Promise<AuditListResponse> {
  const where: SQL[] = [];
  if (q.action) where.push(eq(adminAuditLog.action, q.action));
  if (q.entity) where.push(eq(adminAuditLog.entity, q.entity));
  if (q.entityId) where.push(eq(adminAuditLog.entityId, q.entityId));
  if (q.actor) where.push(ilike(adminAuditLog.actorEmail, `%${q.actor.replace(/[\\%_]/g, '\\$&')}%`));
  if (q.from) where.push(gte(adminAuditLog.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) where.push(lt(adminAuditLog.createdAt, dayAfter(q.to)));
  const filter = where.length ? and(...where) : undefined;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(adminAuditLog)
      .where(filter)
      .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(adminAuditLog).where(filter),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      at: r.createdAt.toISOString(),
      actorUserId: r.actorUserId,
      actorEmail: r.actorEmail,
      actorRole: r.actorRole,
      action: r.action,
      entity: r.entity,
      entityId: r.entityId,
      before: r.before,
      after: r.after,
    })),
    pageInfo: { page: q.page, pageSize: q.pageSize, total: Number(totals?.n ?? 0) },
  };
}
