import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/platform.ts';

// Opaque bearer tokens: 256 random bits, only the SHA-256 stored, so a
// database leak gives no usable token.
const SLIDING_MS = 30 * 24 * 3600 * 1000;
const ABSOLUTE_MS = 90 * 24 * 3600 * 1000;
// Refresh the sliding window at most this often, so reads do not turn into writes on every request.
const TOUCH_EVERY_MS = 10 * 60 * 1000;

export type SessionUser = typeof users.$inferSelect;

export interface AuthContext {
  user: SessionUser;
  sessionId: string;
  /** When a passkey or recovery code last confirmed this session (the step-up, decision 190). */
  confirmedAt: Date | null;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface NewSessionDetails {
  /** Set when the sign-in itself was a passkey: the session starts confirmed (decision 190). */
  confirmed?: boolean;
  /** The city of the geo lookup, for the sessions list; never the address itself. */
  city?: string | null;
}

export async function createSession(db: Db, userId: string, userAgent?: string, details: NewSessionDetails = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    userAgent: userAgent?.slice(0, 300),
    confirmedAt: details.confirmed ? new Date(now) : null,
    city: details.city?.slice(0, 100) ?? null,
    expiresAt: new Date(now + SLIDING_MS),
    absoluteExpiresAt: new Date(now + ABSOLUTE_MS),
  });
  return token;
}

// The session lookup, built once per database and prepared ( Drizzle rebuilt the query
// on every request, ~12 % of a signed-in read).
const prepared = new WeakMap<Db, ReturnType<typeof prepareLookup>>();
const prepareLookup = (db: Db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
        gt(sessions.absoluteExpiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('find_session');

/** A live session: the user, the session id and when it stops being valid (ms since epoch). */
export interface FoundSession extends AuthContext {
  validUntil: number;
}

/** Looks the session up in the database, sliding its expiry at most every TOUCH_EVERY_MS. */
export async function findSessionRow(db: Db, tokenHash: string): Promise<FoundSession | null> {
  const now = new Date();
  let lookup = prepared.get(db);
  if (!lookup) prepared.set(db, (lookup = prepareLookup(db)));
  const rows = await lookup.execute({ tokenHash, now });
  const row = rows[0];
  if (!row) return null;
  let expiresAt = row.session.expiresAt.getTime();
  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    const expires = new Date(Math.min(now.getTime() + SLIDING_MS, row.session.absoluteExpiresAt.getTime()));
    await db.update(sessions).set({ lastSeenAt: now, expiresAt: expires }).where(eq(sessions.id, row.session.id));
    expiresAt = expires.getTime();
  }
  return {
    user: row.user,
    sessionId: row.session.id,
    confirmedAt: row.session.confirmedAt,
    validUntil: Math.min(expiresAt, row.session.absoluteExpiresAt.getTime()),
  };
}

/**
 * A cache of session look-ups for one database (src/server/features/auth/session-cache.ts), set up
 * by buildApp. Revocations below drop entries through it on every instance.
 */
export interface SessionLookupCache {
  find(tokenHash: string): Promise<AuthContext | null>;
  sessionRevoked(sessionId: string): void;
  userSessionsRevoked(userId: string): void;
  /** The session row changed (confirmed by a passkey): every instance reads it afresh. */
  sessionChanged(sessionId: string): void;
}
const caches = new WeakMap<Db, SessionLookupCache>();
export const attachSessionCache = (db: Db, cache: SessionLookupCache) => void caches.set(db, cache);
export const sessionCacheOf = (db: Db) => caches.get(db);

export async function findSession(db: Db, token: string): Promise<AuthContext | null> {
  if (!token || token.length > 200) return null;
  const cache = caches.get(db);
  if (cache) return cache.find(hashToken(token));
  const found = await findSessionRow(db, hashToken(token));
  return found && { user: found.user, sessionId: found.sessionId, confirmedAt: found.confirmedAt };
}

/** Marks the session confirmed now (a passkey or recovery code, decision 190). */
export async function confirmSession(db: Db, sessionId: string, at = new Date()) {
  await db.update(sessions).set({ confirmedAt: at }).where(eq(sessions.id, sessionId));
  caches.get(db)?.sessionChanged(sessionId);
}

/**
 * The user's row changed (profile, e-mail): every instance drops its cached copies of the user's
 * sessions, so the next request reads the new values instead of waiting out SESSION_CACHE_MS. The
 * sessions stay live: dropping a user's cache entries is the same step as after revoking them.
 */
export function userChanged(db: Db, userId: string) {
  caches.get(db)?.userSessionsRevoked(userId);
}

export async function revokeSession(db: Db, sessionId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  caches.get(db)?.sessionRevoked(sessionId);
}

/** `db` may be a transaction: then the caller tells the cache after commit (sessionCacheOf). */
export async function revokeAllSessions(db: Db, userId: string) {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  caches.get(db)?.userSessionsRevoked(userId);
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m?.[1] ?? null;
}
