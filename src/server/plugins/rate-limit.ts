import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { operationKeyedStore } from './rate-limit-store.ts';

/**
 * Registers the limiter without a global limit: each route that strangers can trigger opts in with
 * `config: { rateLimit: { max, timeWindow } }`. Global hooks on every request cost ~3× throughput
 * here, so only the routes that need a limit pay for it.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config) {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 }) : undefined;
  if (config.DATABASE_URL && !config.REDIS_URL) {
    // Several instances on one database are likely; each would count on its own (decision 091).
    app.log.warn(
      'REDIS_URL is not set: rate limits are counted per process, so with several instances each limit is ' +
        'multiplied by their number. Set REDIS_URL to share the counters.',
    );
  }
  // Without a listener ioredis reports every failed reconnect as an "Unhandled error event".
  redis?.on('error', (err: Error) => app.log.warn({ err: err.message }, 'rate limit: Redis not reachable, counting locally'));
  if (redis) app.addHook('onClose', async () => void redis.quit().catch(() => {}));
  await app.register(rateLimit, {
    global: false,
    // One counter per operation, whatever spelling of its path was used (decision 091).
    store: operationKeyedStore({ redis, nameSpace: 'webagency-rl-' }),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: ctx.statusCode,
      code: 'FST_ERR_RATE_LIMIT_EXCEEDED',
      message: 'Too many requests. Please try again later.',
    }),
  });
}
