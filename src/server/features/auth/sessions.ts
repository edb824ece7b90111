import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/platform.ts';

// Opaque bearer tokens (DESIGN §5 "Sessions"): 256 random bits, only the SHA-256 stored, so a
// database leak gives no usable token.
const SLIDING_MS = 30 * 24 * 3600 * 1000;
const ABSOLUTE_MS = 90 * 24 * 3600 * 1000;
// Refresh the sliding window at most this often, so reads do not turn into writes on every request.
const TOUCH_EVERY_MS = 10 * 60 * 1000;

export type SessionUser = typeof users.$inferSelect;

export interface AuthContext {
  user: SessionUser;
  sessionId: string;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Db, userId: string, userAgent?: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    userAgent: userAgent?.slice(0, 300),
    expiresAt: new Date(now + SLIDING_MS),
    absoluteExpiresAt: new Date(now + ABSOLUTE_MS),
  });
  return token;
}

export async function findSession(db: Db, token: string): Promise<AuthContext | null> {
  if (!token || token.length > 200) return null;
  const now = new Date();
  const rows = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, hashToken(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        gt(sessions.absoluteExpiresAt, now),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    const expires = new Date(Math.min(now.getTime() + SLIDING_MS, row.session.absoluteExpiresAt.getTime()));
    await db.update(sessions).set({ lastSeenAt: now, expiresAt: expires }).where(eq(sessions.id, row.session.id));
  }
  return { user: row.user, sessionId: row.session.id };
}

export async function revokeSession(db: Db, sessionId: string) {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: Db, userId: string) {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m?.[1] ?? null;
}
