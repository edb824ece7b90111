// Signed-in requests look their session up here first: a small LRU keyed by the token's
// SHA-256, entries kept for SESSION_CACHE_MS at most (and never past the session's own expiry). Sign
// out, sign out everywhere and the back office's "end all sessions" drop the entries at once on this
// instance and, through the invalidation bus, on every other one; other changes to a user (name,
// role) show within SESSION_CACHE_MS.
import type { Db } from '../../db/client.ts';
import type { InvalidationBus } from '../../lib/invalidation-bus.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { type AuthContext, findSessionRow, type SessionLookupCache, attachSessionCache } from './sessions.ts';

export const SESSION_CACHE_MS = 5_000;
const MAX_ENTRIES = 2_000;

export function createSessionCache(db: Db, bus: InvalidationBus): SessionLookupCache {
  const cache = new TtlCache<AuthContext>(MAX_ENTRIES, SESSION_CACHE_MS);
  // One look-up in flight per token: a burst of requests with one token makes one query.
  const inFlight = new Map<string, Promise<AuthContext | null>>();
  // A look-up that started before a revocation must not cache what it read, and a request that
  // arrives after it must not join that look-up: it starts its own.
  let revocations = 0;
  bus.subscribe('session.revoked', (sessionId) => {
    revocations++;
    inFlight.clear();
    cache.deleteWhere((a) => a.sessionId === sessionId);
  });
  bus.subscribe('session.changed', (sessionId) => {
    revocations++;
    inFlight.clear();
    cache.deleteWhere((a) => a.sessionId === sessionId);
  });
  bus.subscribe('user.sessions-revoked', (userId) => {
    revocations++;
    inFlight.clear();
    cache.deleteWhere((a) => a.user.id === userId);
  });

  const lookup: SessionLookupCache = {
    async find(tokenHash) {
      const hit = cache.get(tokenHash);
      if (hit) return hit;
      let pending = inFlight.get(tokenHash);
      if (!pending) {
        const seen = revocations;
        pending = findSessionRow(db, tokenHash)
          .then((found) => {
            if (!found) return null;
            const auth = { user: found.user, sessionId: found.sessionId, confirmedAt: found.confirmedAt };
            if (seen === revocations) cache.set(tokenHash, auth, found.validUntil - Date.now());
            return auth;
          })
          .finally(() => {
            if (inFlight.get(tokenHash) === pending) inFlight.delete(tokenHash);
          });
        inFlight.set(tokenHash, pending);
      }
      return pending;
    },
    sessionRevoked: (sessionId) => bus.publish('session.revoked', sessionId),
    userSessionsRevoked: (userId) => bus.publish('user.sessions-revoked', userId),
    sessionChanged: (sessionId) => bus.publish('session.changed', sessionId),
  };
  attachSessionCache(db, lookup);
  return lookup;
}
