import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';

/**
 * Registers the limiter without a global limit: each route that strangers can trigger opts in with
 * `config: { rateLimit: { max, timeWindow } }`. Global hooks on every request cost ~3× throughput
 * here (STACK-NOTES), so only the routes that need a limit pay for it.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config) {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 }) : undefined;
  if (redis) app.addHook('onClose', async () => void redis.quit());
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'webagency-rl-' } : {}),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: ctx.statusCode,
      code: 'FST_ERR_RATE_LIMIT_EXCEEDED',
      message: 'Too many requests. Please try again later.',
    }),
  });
}
