import { chatRatingAverage } from '../chat/chat-ratings.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { supportOrder } from '../support/requests.ts';
import { adminRatings, rateOrder, rateSupportRequest, ratingsOfOrder } from './ratings.ts';
import { route } from '../../lib/route.ts';
import { getOrdersRatings, postOrdersRating, postOrdersSupportRequestsRating, getAdminRatings } from '../../../contract/ratings.ts';

// Ratings (docs/decisions/214-ratings.md): the customer's routes need their own delivered order
// (any other id is a 404, checked before the body); the founder's list sits under /api/v1/admin.

/** The customer's routes (mounted at /api/v1). */
export const ratingRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['ratings'];
  const onRequest = requireUser(deps.db);
  const orderOf = (orderId: string, userId: string) => supportOrder(deps.db, orderId, { side: 'customer', userId });

  route(
    app,
    getOrdersRatings,
    {
      schema: { tags, summary: "The ratings the customer gave on a delivered order: the order's own and each support request's" },
      onRequest,
    },
    async (request) => {
      const order = await orderOf(request.params.orderId, authOf(request).user.id);
      return { success: true as const, ratings: await ratingsOfOrder(deps.db, order) };
    },
  );

  route(
    app,
    postOrdersRating,
    {
      schema: { tags, summary: 'Rates a delivered order once (1–5, an optional comment and permission to quote it); again is a 409' },
      onRequest,
      config: perSession(10),
    },
    async (request, reply) => {
      const userId = authOf(request).user.id;
      const order = await orderOf(request.params.orderId, userId);
      return reply.status(201).send({ success: true as const, rating: await rateOrder(deps, order, userId, request.body) });
    },
  );

  route(
    app,
    postOrdersSupportRequestsRating,
    {
      schema: {
        tags,
        summary: 'Rates a resolved support request once (1–5 and an optional comment); before it is resolved or again is a 409',
      },
      onRequest,
      config: perSession(10),
    },
    async (request, reply) => {
      const userId = authOf(request).user.id;
      const order = await orderOf(request.params.orderId, userId);
      return reply
        .status(201)
        .send({ success: true as const, rating: await rateSupportRequest(deps, order, request.params.requestId, userId, request.body) });
    },
  );
};

/** The founder's list (mounted under /api/v1/admin, behind its guard). */
export const adminRatingRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminRatings,
    {
      schema: { tags: ['admin'], security: [{ bearer: [] }], summary: 'Ratings, newest first, with the average score of the last 90 days' },
    },
    async () => ({
      success: true as const,
      ...(await adminRatings(deps.db)),
      // The live chat's CSAT beside the other ratings (docs/decisions/347-chat-availability-canned-replies-csat.md).
      chat: await chatRatingAverage(deps.database),
    }),
  );
};
