import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse } from '../../../contract/health.ts';
import type { AppDeps } from '../../deps.ts';
import { createRedisProbe } from './redis-probe.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const redis = deps.config.REDIS_URL ? createRedisProbe(deps.config.REDIS_URL, deps.log) : undefined;
  if (redis) app.addHook('onClose', () => redis.close());

  app.get(
    '/health',
    {
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database check; names Redis state when REDIS_URL is set',
        description:
          '503 when the database does not answer. Redis being down does not make it 503 (every instance shares one Redis, ' +
          'and each keeps serving without it); `redis` says so. See docs/decisions/066.',
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (_req, reply) => {
      const [ok, redisState] = await Promise.all([deps.database.ping(), redis?.state()]);
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', ...(redisState ? { redis: redisState } : {}) });
    },
  );
};
