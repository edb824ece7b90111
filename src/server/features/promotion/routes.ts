import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { promotionResponse } from '../../../contract/promotion.ts';
import type { AppDeps } from '../../deps.ts';
import { getFeaturedPromotion } from './get-featured-promotion.ts';
import { cachedRead } from '../../lib/cached-read.ts';
import { route } from '../../lib/route.ts';
import { getPromotion } from '../../../contract/promotion.ts';

/** The bus topic the back office publishes when a coupon or the featured promotion changes. */
export const PROMOTION_TOPIC = 'promotion';
/**
 * The server's copy lives 10 s (dropped at once on every instance through the bus), a browser's or
 * proxy's 50 s: a change shows within the minute the back office promises even if a bus message is
 * lost (50 + 10 s), at once normally on the server side.
 */
export const PROMOTION_CACHE_MS = 10_000;
export const PROMOTION_MAX_AGE_S = 50;

export const promotionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const featured = cachedRead({
    schema: promotionResponse,
    ttlMs: PROMOTION_CACHE_MS,
    load: async () => ({ promotion: await getFeaturedPromotion(deps) }),
    invalidateOn: { bus: deps.bus, topic: PROMOTION_TOPIC },
  });
  route(
    app,
    getPromotion,
    { schema: { tags: ['promotion'], summary: 'The featured promotion shown by the banner, popup and countdown' } },
    async (_request, reply) => {
      // Short shared caching: with the server's 10 s, the founder's change shows within a minute.
      reply.header('cache-control', `public, max-age=${PROMOTION_MAX_AGE_S}`);
      // Already validated and serialised by cachedRead; `as never` tells the typed reply so.
      return reply.type('application/json; charset=utf-8').send((await featured.json('featured')) as never);
    },
  );
};
