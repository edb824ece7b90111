import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { staffMembers } from '../../db/schema/account-security.ts';
import { sessions, users } from '../../db/schema/platform.ts';
import { notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { revokeAllSessions, sessionCacheOf } from '../auth/sessions.ts';

/**
 * Takes someone off the staff list (decision 191): their account is a customer's again and every
 * session of theirs ends at once — on every instance, sockets included — so a removed member keeps
 * nothing open in the back office. Returns how many live sessions were ended.
 */
export async function removeStaff(deps: AppDeps, actorUserId: string, id: string): Promise<number> {
  const { userId, revoked } = await deps.db.transaction(async (tx) => {
    const [row] = await tx.delete(staffMembers).where(eq(staffMembers.id, id)).returning();
    if (!row) throw notFound('No such staff member.');
    const [account] = await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, row.email)).limit(1);
    // The owner is never on the list (inviteStaff refuses), but an address may have become an
    // ADMIN_EMAILS one since: the owner keeps their role and sessions.
    const demoted = account && account.role === 'staff' ? account.id : null;
    let revoked = 0;
    if (demoted) {
      await tx.update(users).set({ role: 'customer', updatedAt: new Date() }).where(eq(users.id, demoted));
      const [live] = await tx
        .select({ n: count() })
        .from(sessions)
        .where(and(eq(sessions.userId, demoted), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())));
      revoked = Number(live?.n ?? 0);
      await revokeAllSessions(tx, demoted);
    }
    await recordAudit(tx, {
      actorUserId,
      action: 'staff.remove',
      entity: 'staff_member',
      entityId: row.id,
      before: { email: row.email, userId: account?.id ?? null, role: account?.role ?? null },
      after: { role: demoted ? 'customer' : (account?.role ?? null), sessionsEnded: revoked },
    });
    return { userId: demoted, revoked };
  });
  if (userId) {
    // Revoked inside the transaction: the session caches and the sockets hear of it after the commit.
    sessionCacheOf(deps.db)?.userSessionsRevoked(userId);
    deps.revocations.revoked({ userId });
  }
  return revoked;
}
