import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orderReviews } from '../../db/schema/reviews.ts';
import { notFound } from '../../lib/app-error.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { workspaceOrder } from '../../lib/workspace-order.ts';

/** Who asks: the order's customer, or someone of the agency (an admin, behind the admin guard). */
export type Side = 'customer' | 'agency';
export interface Viewer {
  side: Side;
  userId: string;
}

const REVIEW_NOT_FOUND = 'Review not found.';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The order a viewer may work with, named as events name it: the workspace's one rule
 * (lib/workspace-order.ts, decision 142) — a customer's own orders past the checkout draft, every
 * paid order for the agency, the same 404 for anything else.
 */
export const reviewOrder = (db: Db, publicId: string, viewer: Viewer, opts: { write?: boolean } = {}): Promise<OrderRef> =>
  workspaceOrder(db, publicId, viewer, opts);

/**
 * One round of the order, in the caller's transaction. `lock`: `update` for a decision, `share` for
 * a comment (a decision then waits for comments being added, and they for it). A round of another
 * order is "not found", whether it exists or not.
 */
export async function reviewOf(tx: Tx, order: OrderRef, reviewId: string, lock: 'update' | 'share') {
  if (!UUID.test(reviewId)) throw notFound(REVIEW_NOT_FOUND);
  const [review] = await tx
    .select()
    .from(orderReviews)
    .where(and(eq(orderReviews.id, reviewId), eq(orderReviews.orderId, order.orderId)))
    .for(lock);
  if (!review) throw notFound(REVIEW_NOT_FOUND);
  return review;
}

export type ReviewRow = Awaited<ReturnType<typeof reviewOf>>;

/** What events say about a round besides the order. */
export const reviewRef = (order: OrderRef, review: ReviewRow) => ({
  ...order,
  reviewId: review.id,
  kind: review.kind,
  round: review.round,
  title: review.title,
});
