import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { promotionResponse } from '../../../contract/promotion.ts';
import type { AppDeps } from '../../deps.ts';
import { getFeaturedPromotion } from './get-featured-promotion.ts';
import { cachedRead } from '../../lib/cached-read.ts';

/** The bus topic the back office publishes when a coupon or the featured promotion changes. */
export const PROMOTION_TOPIC = 'promotion';
/** Well under the 60 s the response promises: a change shows within 60 + 10 s at worst, at once normally. */
export const PROMOTION_CACHE_MS = 10_000;

export const promotionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const featured = cachedRead({
    schema: promotionResponse,
    ttlMs: PROMOTION_CACHE_MS,
    load: async () => ({ promotion: await getFeaturedPromotion(deps) }),
    invalidateOn: { bus: deps.bus, topic: PROMOTION_TOPIC },
  });
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
      // Already validated and serialised by cachedRead; `as never` tells the typed reply so.
      return reply.type('application/json; charset=utf-8').send((await featured.json('featured')) as never);
    },
  );
};
