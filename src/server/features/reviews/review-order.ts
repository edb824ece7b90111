import { and, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { orderReviews } from '../../db/schema/reviews.ts';
import { notFound } from '../../lib/app-error.ts';
import type { OrderRef } from '../../lib/domain-events.ts';

/** Who asks: the order's customer, or someone of the agency (an admin, behind the admin guard). */
export type Side = 'customer' | 'agency';
export interface Viewer {
  side: Side;
  userId: string;
}

const ORDER_NOT_FOUND = 'Order not found.';
const REVIEW_NOT_FOUND = 'Review not found.';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The order a viewer may work with, named as events name it. A customer sees only their own orders
 * past the checkout draft; everything else is the same 404 as an order that does not exist (the
 * files' rule, decision 142). The founder sees every paid order; a draft has no reviews.
 */
export async function reviewOrder(db: Db, publicId: string, viewer: Viewer): Promise<OrderRef> {
  const [row] = await db
    .select({ orderId: orders.id, orderPublicId: orders.publicId, customerEmail: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orders.publicId, publicId), ne(orders.state, 'awaiting_advance'), viewer.side === 'customer' ? eq(orders.userId, viewer.userId) : undefined))
    .limit(1);
  if (!row) throw notFound(ORDER_NOT_FOUND);
  return row;
}

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
export const reviewRef = (order: OrderRef, review: ReviewRow) => ({ ...order, reviewId: review.id, kind: review.kind, round: review.round, title: review.title });
