import type { FastifyInstance } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import { notices, type MessageSide } from '../../db/schema/order-messages.ts';
import type { ReviewRef } from '../../lib/domain-events.ts';
import { workspaceOrder } from '../../lib/workspace-order.ts';
import { addNotice, markNoticesRead } from './notices.ts';

// What becomes a notice for whom (decision 155). Each reaction runs in the publisher's transaction:
// a notice exists exactly when its message, round, decision or pin does.

const other = (side: MessageSide): MessageSide => (side === 'customer' ? 'agency' : 'customer');
const round = (r: ReviewRef) => `${r.kind === 'ui' ? 'UI' : 'Final'} design review, round ${r.round}`;

export function subscribeNotices(deps: AppDeps) {
  const { events } = deps;
  events.inTransaction('order.message', async (m, tx) => {
    await addNotice(tx, {
      orderId: m.orderId,
      recipient: other(m.sender),
      kind: 'message',
      refId: m.messageId,
      summary: m.sender === 'customer' ? 'A new message from the customer' : 'A new message from the team',
      at: m.at,
    });
  });
  events.inTransaction('review.opened', async (r, tx) => {
    await addNotice(tx, { orderId: r.orderId, recipient: 'customer', kind: 'review_opened', refId: r.reviewId, summary: `${round(r)} is ready for you: "${r.title}"`, at: r.at });
  });
  events.inTransaction('review.decided', async (r, tx) => {
    const what = r.decision === 'approve' ? `The customer approved the ${round(r)}` : `The customer requested changes on the ${round(r)}`;
    await addNotice(tx, { orderId: r.orderId, recipient: 'agency', kind: 'review_decided', refId: r.reviewId, summary: `${what}: "${r.title}"`, at: r.at });
  });
  events.inTransaction('review.commented', async (c, tx) => {
    const who = c.author === 'customer' ? 'the customer' : 'the team';
    await addNotice(tx, { orderId: c.orderId, recipient: other(c.author), kind: 'review_comment', refId: c.commentId, summary: `A new comment by ${who} on the ${round(c)}`, at: c.at });
  });
  // A deleted person gets nothing more (decision 192): their side's notices go, so no batch is mailed.
  events.inTransaction('account.deleted', async (e, tx) => {
    await tx.delete(notices).where(and(eq(notices.recipient, 'customer'), inArray(notices.orderId, orderIdsOf(e.userId))));
  });
}

const REVIEW_READS: { method: string; url: string; side: MessageSide; param: string }[] = [
  { method: 'GET', url: '/api/v1/orders/:orderId/reviews', side: 'customer', param: 'orderId' },
  { method: 'GET', url: '/api/v1/admin/orders/:orderId/reviews', side: 'agency', param: 'orderId' },
  { method: 'GET', url: '/api/v1/admin/orders/:id/reviews', side: 'agency', param: 'id' },
];

/**
 * Reading the reviews in the app marks the reader's review notices of that order read, so the
 * e-mail does not repeat what they saw. A hook on the reviews' list route, so the reviews feature
 * does not have to know about notices (events and hooks, not imports). Only after a 200: the route
 * has then checked that the reader may see the order.
 */
export function markReviewNoticesOnRead(app: FastifyInstance, deps: AppDeps) {
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 200) return;
    const route = REVIEW_READS.find((r) => r.method === request.method && r.url === request.routeOptions.url);
    if (!route) return;
    const publicId = (request.params as Record<string, string | undefined>)[route.param];
    const userId = request.auth?.user.id;
    if (!publicId || !userId) return;
    try {
      const order = await workspaceOrder(deps.db, publicId, { side: route.side, userId });
      await markNoticesRead(deps.db, order.orderId, route.side, ['review_opened', 'review_decided', 'review_comment']);
    } catch (err) {
      deps.log.warn({ err }, 'notices: marking review notices read');
    }
  });
}
