import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/idempotency.ts';
import { AppError, badRequest, conflict } from '../lib/app-error.ts';
import { bearerToken, findSession } from '../features/auth/sessions.ts';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '../../contract/common.ts';

// One mechanism for double clicks and retried requests (docs/decisions/210-idempotency-key.md):
// a signed-in POST carrying `Idempotency-Key` is done once per account and key within 24 h. The
// first request claims the key in the database (so every instance sees it), its answer (status and
// body) is stored when it is sent, and a later request with the same key gets that answer again —
// or a 422 when its method, path or body differ. A second request arriving while the first still
// runs waits for its answer. Answers that say "try again" (5xx, 401, 403, 429) are not kept.
// An answer that carries a secret (its operation's `secretAnswer`: tokens, recovery codes, a site
// link) is never written: the key keeps a 409 "already done: ask for a new one" in its place
// (docs/decisions/331-secrets-never-replayed.md).

const KEEP_MS = 24 * 3600 * 1000;
/** A claimed key whose answer never came (the instance died mid-request) is free again after this. */
const ABANDONED_MS = 60 * 1000;
const WAIT_MS = 15 * 1000;
const POLL_MS = 100;
const NOT_KEPT = new Set([401, 403, 408, 429]);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `route` from the operation's `secretAnswer` (src/contract/operation.ts). */
    secretAnswer?: boolean;
  }
}

/** What a replay of a secret-bearing answer gets instead of the secret (docs/decisions/331-secrets-never-replayed.md). */
export const SECRET_REPLAY_ANSWER = {
  success: false,
  code: 'CONFLICT',
  message:
    'Already done: ask for a new one. The answer carried a secret, shown only once; send the request again with a new Idempotency-Key.',
} as const;

type Claim = { userId: string; key: string };
const claims = new WeakMap<FastifyRequest, Claim>();

/** What makes two requests "the same": method, route, path parameters and body (JSON) or size (files). */
function requestHash(request: FastifyRequest): string {
  const body = request.body === undefined ? `bytes:${request.headers['content-length'] ?? ''}` : JSON.stringify(request.body);
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${JSON.stringify(request.params ?? {})}\n${body}`)
    .digest('hex');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function replay(reply: FastifyReply, row: { status: number | null; contentType: string | null; body: string | null }) {
  reply.header('idempotent-replayed', 'true');
  if (row.contentType) reply.header('content-type', row.contentType);
  return reply.status(row.status ?? 200).send(row.body ?? '');
}

export function registerIdempotency(app: FastifyInstance, db: Db) {
  // preHandler: after the route's own sign-in check and body validation (an invalid body is a 400
  // that claims nothing), before the handler does anything.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const raw = request.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw badRequest('Invalid header "Idempotency-Key": it must be 1 to 128 printable characters.');
    }
    const token = bearerToken(request.headers.authorization);
    const auth = request.auth ?? (token ? await findSession(db, token) : null);
    // Without an account there is no one to keep the answer for; such POSTs are rate-limited instead.
    if (!auth) return;
    const userId = auth.user.id;
    const hash = requestHash(request);
    const now = Date.now();
    // Claim the key, or take over one whose 24 h are over or whose first request was abandoned.
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ userId, key, requestHash: hash })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.key],
        set: { requestHash: hash, status: null, contentType: null, body: null, createdAt: sql`now()` },
        setWhere: or(
          lt(idempotencyKeys.createdAt, new Date(now - KEEP_MS)),
          and(isNull(idempotencyKeys.status), lt(idempotencyKeys.createdAt, new Date(now - ABANDONED_MS))),
        ),
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length) {
      claims.set(request, { userId, key });
      return;
    }
    const deadline = now + WAIT_MS;
    for (;;) {
      const [row] = await db
        .select({
          requestHash: idempotencyKeys.requestHash,
          status: idempotencyKeys.status,
          contentType: idempotencyKeys.contentType,
          body: idempotencyKeys.body,
        })
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (row && row.requestHash !== hash) {
        throw new AppError('UNPROCESSABLE', 'This Idempotency-Key was already used for another request. Send a new key for a new request.');
      }
      if (row && row.status !== null) return replay(reply, row);
      // The first request's answer was not kept (it failed): this one may run in its place.
      if (!row) {
        const retried = await db
          .insert(idempotencyKeys)
          .values({ userId, key, requestHash: hash })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (retried.length) {
          claims.set(request, { userId, key });
          return;
        }
      }
      if (Date.now() > deadline)
        throw conflict('The first request with this Idempotency-Key is still being processed. Please try again in a moment.');
      await sleep(POLL_MS);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    const where = and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key));
    const status = reply.statusCode;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    if (status >= 500 || NOT_KEPT.has(status) || body === null) {
      await db.delete(idempotencyKeys).where(where);
      return payload;
    }
    if (request.routeOptions.config?.secretAnswer && status < 300) {
      // The secret itself is never written (nor its WAL record): the replay is a 409.
      await db
        .update(idempotencyKeys)
        .set({ status: 409, body: JSON.stringify(SECRET_REPLAY_ANSWER), contentType: 'application/json; charset=utf-8' })
        .where(where);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    await db
      .update(idempotencyKeys)
      .set({ status, body, contentType: typeof contentType === 'string' ? contentType : null })
      .where(where);
    return payload;
  });
}

/** Forgets keys older than 24 h (run by the jobs timer). */
export async function pruneIdempotencyKeys(db: Db, now = new Date()) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - KEEP_MS)));
}
