import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { promotionResponse } from '../../../contract/promotion.ts';
import type { AppDeps } from '../../deps.ts';
import { getFeaturedPromotion } from './get-featured-promotion.ts';

export const promotionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/promotion',
    {
      schema: {
        tags: ['promotion'],
        summary: 'The featured promotion shown by the banner, popup and countdown',
        response: { 200: promotionResponse },
      },
    },
    async (_request, reply) => {
      // Short shared caching: the founder's change shows within a minute.
      reply.header('cache-control', 'public, max-age=60');
      return { promotion: await getFeaturedPromotion(deps) };
    },
  );
};
