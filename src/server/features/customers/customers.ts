import { and, asc, count, desc, eq, gt, ilike, isNull, or, sql } from 'drizzle-orm';
import type { CustomerDetailResponse, CustomerListQuery, CustomerListResponse } from '../../../contract/admin-customers.ts';
import { sourceLabel } from '../../../contract/funnel.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/platform.ts';
import { notFound } from '../../lib/app-error.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { conversationsOf, orderCounts, ordersOf, signInMethodsOf } from './customer-related.ts';
import type { SupportExtensionQuery } from '../support/support-window.ts';

const liveSession = (now: Date) => and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.absoluteExpiresAt, now));

const likeEscaped = (q: string) => `%${q.replace(/[\\%_]/g, '\\$&')}%`;

export async function listCustomers(db: Db, q: CustomerListQuery): Promise<CustomerListResponse> {
  const filter = q.q ? or(ilike(users.email, likeEscaped(q.q)), ilike(users.name, likeEscaped(q.q))) : undefined;
  const now = new Date();
  const active = db
    .select({ userId: sessions.userId, n: count().as('n') })
    .from(sessions)
    .where(liveSession(now))
    .groupBy(sessions.userId)
    .as('active');
  const [rows, [total]] = await Promise.all([
    db
      .select({ user: users, activeSessions: sql<number>`coalesce(${active.n}, 0)` })
      .from(users)
      .leftJoin(active, eq(active.userId, users.id))
      .where(filter)
      .orderBy(desc(users.createdAt), asc(users.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(users).where(filter),
  ]);
  const orders = await orderCounts(
    db,
    rows.map((r) => r.user.id),
  );
  return {
    items: rows.map(({ user, activeSessions }) => ({
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      createdAt: user.createdAt.toISOString(),
      orders: orders.get(user.id) ?? 0,
      activeSessions: Number(activeSessions),
    })),
    pageInfo: { page: q.page, pageSize: q.pageSize, total: Number(total?.n ?? 0) },
  };
}

export async function getCustomer(
  db: Db,
  id: string,
  supportDays: number,
  supportExtension: SupportExtensionQuery | undefined,
): Promise<CustomerDetailResponse> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user) throw notFound('No such customer.');
  const [live, orders, conversations, methods] = await Promise.all([
    db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, id), liveSession(new Date())))
      .orderBy(desc(sessions.lastSeenAt)),
    ordersOf(db, id, supportDays, supportExtension),
    conversationsOf(db, id),
    signInMethodsOf(db, id),
  ]);
  return {
    customer: {
      id: user.id,
      email: user.email,
      name: user.name,
      phoneCode: user.phoneCode,
      phoneNumber: user.phoneNumber,
      address: user.address,
      role: user.role,
      createdAt: user.createdAt.toISOString(),
      source: sourceLabel(user),
    },
    signInMethods: ['email', ...methods],
    sessions: live.map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      userAgent: s.userAgent,
    })),
    orders,
    conversations,
  };
}

/** "End all sessions": every device of this customer is signed out at its next request. */
export async function endAllSessions(db: Db, actorUserId: string, userId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!user) throw notFound('No such customer.');
    const [live] = await tx
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), liveSession(new Date())));
    const revoked = Number(live?.n ?? 0);
    await revokeAllSessions(tx, userId);
    await recordAudit(tx, {
      actorUserId,
      action: 'customer.sessions.revoke',
      entity: 'user',
      entityId: userId,
      before: { activeSessions: revoked },
      after: { activeSessions: 0 },
    });
    return revoked;
  });
}
