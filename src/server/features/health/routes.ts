import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse } from '../../../contract/health.ts';
import type { AppDeps } from '../../deps.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database check',
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (_req, reply) => {
      const ok = await deps.database.ping();
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable' });
    },
  );
};
