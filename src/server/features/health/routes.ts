import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse, type HealthResponse } from '../../../contract/health.ts';
import type { AppDeps } from '../../deps.ts';
import { createRedisProbe } from './redis-probe.ts';
import { route } from '../../lib/route.ts';
import { getHealth } from '../../../contract/health.ts';

/**
 * How long a good probe answers for the next calls ( health under load must not query the
 * database per call). A failed probe is never reused: once the database goes away, health says 503
 * at most this long after the last good probe started (plus the ping's own timeout), and says 200
 * again on the first call after it is back.
 */
export const HEALTH_REUSE_MS = 1000;

/** One probe at a time; a good result reused for HEALTH_REUSE_MS from the moment its probe started. */
function reusedWhileGood<T>(probe: () => Promise<T>, good: (value: T) => boolean): () => T | Promise<T> {
  let goodValue: T | undefined;
  let goodAt = -Infinity;
  let inFlight: Promise<T> | null = null;
  return () => {
    if (goodValue !== undefined && performance.now() - goodAt < HEALTH_REUSE_MS) return goodValue;
    if (!inFlight) {
      const started = performance.now();
      inFlight = probe().then((value) => {
        inFlight = null;
        if (good(value)) [goodValue, goodAt] = [value, started];
        else goodValue = undefined;
        return value;
      });
    }
    return inFlight;
  };
}

export const healthRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const redis = deps.config.REDIS_URL ? createRedisProbe(deps.config.REDIS_URL, deps.log) : undefined;
  if (redis) app.addHook('onClose', () => redis.close());
  // deps.database.ping is read per probe (tests replace it).
  const database = reusedWhileGood(
    () => deps.database.ping(),
    (ok) => ok,
  );
  const redisState = redis
    ? reusedWhileGood(
        () => redis.state(),
        (s) => s === 'up',
      )
    : () => undefined;
  // The few possible bodies, validated and serialised once each.
  const bodies = new Map<string, string>();
  const bodyOf = (ok: boolean, redisNow: 'up' | 'down' | undefined) => {
    const key = `${ok}/${redisNow ?? ''}`;
    let body = bodies.get(key);
    if (body === undefined) {
      const value: HealthResponse = { status: ok ? 'ok' : 'unavailable', ...(redisNow ? { redis: redisNow } : {}) };
      bodies.set(key, (body = JSON.stringify(healthResponse.parse(value))));
    }
    return body;
  };

  route(
    app,
    getHealth,
    {
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database check; names Redis state when REDIS_URL is set',
        description:
          '503 when the database does not answer. Redis being down does not make it 503 (every instance shares one Redis, ' +
          'and each keeps serving without it); `redis` says so. See docs/decisions/066. A good check is reused for ' +
          `${HEALTH_REUSE_MS} ms (so a burst of checks costs one query); a failed one never is (docs/decisions/070).`,
      },
    },
    async (_req, reply) => {
      const dbNow = database();
      const redisNow = redisState();
      const ok = typeof dbNow === 'boolean' ? dbNow : await dbNow;
      const redisValue = redisNow === undefined || typeof redisNow === 'string' ? redisNow : await redisNow;
      // Already validated and serialised; `as never` tells the typed reply so.
      return reply
        .status(ok ? 200 : 503)
        .type('application/json; charset=utf-8')
        .send(bodyOf(ok, redisValue) as never);
    },
  );
};
