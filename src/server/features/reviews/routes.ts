import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AgencyCommentBody } from '../../../contract/reviews.ts';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { commentOnReview, resolveReviewComment } from './comment-review.ts';
import { decideReview } from './decide-review.ts';
import { deletePin, editPin } from './edit-pin.ts';
import { listOwnReviews, listReviews } from './list-reviews.ts';
import { openReview } from './open-review.ts';
import { reviewOrder, type Side, type Viewer } from './review-order.ts';
import { route } from '../../lib/route.ts';
import {
  getAdminOrdersReviews,
  getOrdersReviews,
  postOrdersReviewsComments,
  patchOrdersReviewsCommentsByCommentId,
  deleteOrdersReviewsCommentsByCommentId,
  postOrdersReviewsDecision,
  postAdminOrdersReviews,
  postAdminOrdersReviewsComments,
  postAdminOrdersReviewsCommentsResolve,
} from '../../../contract/reviews.ts';

// Design reviews (decision 150). The customer reads rounds, pins and decides; the
// founder (under /admin, whose guard admits admins only and answers a customer 403) opens rounds,
// answers pins and resolves them. Every route checks the order first: another customer's order
// is a 404 before the body is looked at.

const viewerOf = (request: FastifyRequest, side: Side): Viewer => ({ side, userId: authOf(request).user.id });
type CommentRequest = FastifyRequest & { params: { orderId: string; reviewId: string }; body: AgencyCommentBody };

/** Both sides' comment route: the order first (another customer's is 404), then the comment as that side. */
const commentAs = (deps: AppDeps, side: Side) => async (request: CommentRequest, reply: FastifyReply) => {
  const viewer = viewerOf(request, side);
  const order = await reviewOrder(deps.db, request.params.orderId, viewer, { write: true });
  const comment = await commentOnReview(deps, order, request.params.reviewId, viewer, request.body);
  return reply.status(201).send({ success: true as const, comment });
};

/**
 * The reader has seen the order's rounds: notices subscribe (what was seen is not mailed). Published
 * only when there is a notice to mark: one read instead of a transaction on every list (decision 285).
 */
const seen = async (deps: AppDeps, orderId: string, side: 'customer' | 'agency') => {
  const unseen = deps.queries.unseenNoticesSql;
  const [row] = unseen
    ? await deps.database.query<{ unseen: boolean }>(
        `select ${unseen(side, 'reviews', '$1::uuid')} as unseen`,
        [orderId],
        `unseen_reviews_${side}`,
      )
    : [{ unseen: true }];
  if (row?.unseen) await deps.events.publishAlone('order.seen', { orderId, side, what: 'reviews', at: new Date() });
};

const LIST_SUMMARY = "The order's review rounds with their files, pins and decisions, oldest first";

/** Both sides' list of rounds; reading it marks the order's review notices seen. */
const listAs = (deps: AppDeps, side: Side) => async (request: FastifyRequest & { params: { orderId: string } }) => {
  const order = await reviewOrder(deps.db, request.params.orderId, viewerOf(request, side));
  const reviews = await listReviews(deps.db, order);
  await seen(deps, order.orderId, side);
  return { success: true as const, reviews };
};

/** The customer's routes (mounted at /api/v1; listed in the public OpenAPI document). */
export const reviewRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['reviews'];
  const onRequest = requireUser(deps.db);
  route(app, getOrdersReviews, { schema: { tags, summary: LIST_SUMMARY }, onRequest }, async (request) => {
    const unseen = deps.queries.unseenNoticesSql?.('customer', 'reviews', 'o.id') ?? 'true';
    const { order, reviews, unseen: toMark } = await listOwnReviews(deps, request.params.orderId, authOf(request).user.id, unseen);
    if (toMark) await deps.events.publishAlone('order.seen', { orderId: order.orderId, side: 'customer', what: 'reviews', at: new Date() });
    return { success: true as const, reviews };
  });

  route(
    app,
    postOrdersReviewsComments,
    {
      schema: {
        tags,
        summary:
          "Drops a pin with a comment on one of the round's files (x, y: fractions 0..1 of the image); only while the round is open (409 after)",
      },
      onRequest,
      config: perSession(120),
    },
    commentAs(deps, 'customer'),
  );

  route(
    app,
    patchOrdersReviewsCommentsByCommentId,
    {
      schema: { tags, summary: 'Corrects the text of your own pin while the round is open and before the agency answers it (409 after)' },
      onRequest,
      config: perSession(120),
    },
    async (request) => {
      const order = await reviewOrder(deps.db, request.params.orderId, viewerOf(request, 'customer'), { write: true });
      return {
        success: true as const,
        comment: await editPin(deps, order, request.params.reviewId, request.params.commentId, request.body.text),
      };
    },
  );

  route(
    app,
    deleteOrdersReviewsCommentsByCommentId,
    {
      schema: { tags, summary: 'Takes back your own pin while the round is open and before the agency answers it (409 after)' },
      onRequest,
      config: perSession(120),
    },
    async (request) => {
      const order = await reviewOrder(deps.db, request.params.orderId, viewerOf(request, 'customer'), { write: true });
      await deletePin(deps, order, request.params.reviewId, request.params.commentId);
      return { success: true as const };
    },
  );

  route(
    app,
    postOrdersReviewsDecision,
    {
      schema: { tags, summary: 'Approves the round or requests changes (a comment or a pin says what); a round is decided once (409)' },
      onRequest,
      config: perSession(30),
    },
    async (request) => {
      const viewer = viewerOf(request, 'customer');
      const order = await reviewOrder(deps.db, request.params.orderId, viewer, { write: true });
      return { success: true as const, review: await decideReview(deps, order, request.params.reviewId, viewer.userId, request.body) };
    },
  );
};

/** The founder's routes (mounted under /api/v1/admin); every write is audited. */
export const adminReviewRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['admin'];
  route(app, getAdminOrdersReviews, { schema: { tags, summary: LIST_SUMMARY } }, listAs(deps, 'agency'));

  route(
    app,
    postAdminOrdersReviews,
    {
      schema: {
        tags,
        summary: 'Opens the next review round (ui or final) on images/PDFs of the order; 409 while a round of the kind is open',
      },
      config: perSession(60),
    },
    async (request, reply) => {
      const viewer = viewerOf(request, 'agency');
      const order = await reviewOrder(deps.db, request.params.orderId, viewer);
      return reply.status(201).send({ success: true as const, review: await openReview(deps, order, viewer.userId, request.body) });
    },
  );

  route(
    app,
    postAdminOrdersReviewsComments,
    { schema: { tags, summary: "The agency's comment on a round, usually the answer to a pin (replyTo)" }, config: perSession(120) },
    commentAs(deps, 'agency'),
  );

  route(
    app,
    postAdminOrdersReviewsCommentsResolve,
    { schema: { tags, summary: 'Marks a comment resolved (again: unchanged)' }, config: perSession(120) },
    async (request) => {
      const viewer = viewerOf(request, 'agency');
      const order = await reviewOrder(deps.db, request.params.orderId, viewer);
      return {
        success: true as const,
        comment: await resolveReviewComment(deps, order, request.params.reviewId, request.params.commentId, viewer.userId),
      };
    },
  );
};
