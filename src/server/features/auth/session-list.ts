import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { SessionSummary } from '../../../contract/account.ts';
import { deviceName } from '../../../domain/device-name.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { sessions } from '../../db/schema/platform.ts';
import { notFound } from '../../lib/app-error.ts';
import { revokeSession } from './sessions.ts';

// "My sessions": where the person is signed in, and signing one of them out.
// Only live sessions are listed — revoked or expired ones are history, not places one can act on.

/** Enough for any person; a list this long is a sign to use "sign out everywhere". */
const MAX_LISTED = 100;

const live = (userId: string, now: Date) =>
  and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.absoluteExpiresAt, now));

/** The user's live sessions, newest first; the token hash never leaves this query. */
export async function listSessions(db: Db, userId: string, currentSessionId: string): Promise<SessionSummary[]> {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      city: sessions.city,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(live(userId, new Date()))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(MAX_LISTED);
  return rows.map((r) => ({
    id: r.id,
    device: deviceName(r.userAgent),
    city: r.city,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    current: r.id === currentSessionId,
  }));
}

/**
 * Signs one of the user's own sessions out: revoked in the database, dropped from the session cache
 * of every instance (revokeSession) and its open sockets closed (revocations). Another user's
 * session, or one already ended, is the same 404 as an id that never existed.
 */
export async function signOutSession(deps: AppDeps, userId: string, sessionId: string): Promise<void> {
  const [own] = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), live(userId, new Date())))
    .limit(1);
  if (!own) throw notFound('Session not found. It may have been signed out already.');
  await revokeSession(deps.db, own.id);
  deps.revocations.revoked({ sessionId: own.id });
}
