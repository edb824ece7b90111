import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Review, ReviewComment } from '../../../contract/reviews.ts';
import type { Database, Db } from '../../db/client.ts';
import { notFound } from '../../lib/app-error.ts';
import { namedStatement } from '../../lib/named-statement.ts';
import { orderReviewComments, orderReviewDecisions, orderReviewFiles, orderReviews } from '../../db/schema/reviews.ts';
import type { OrderRef } from '../../lib/domain-events.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toComment = (c: typeof orderReviewComments.$inferSelect): ReviewComment => ({
  id: c.id,
  fileId: c.fileId,
  x: c.x,
  y: c.y,
  text: c.text,
  author: c.author,
  resolved: c.resolvedAt !== null,
  createdAt: c.createdAt.toISOString(),
  replyTo: c.replyTo,
  pageUrl: c.pageUrl,
  selector: c.selector,
  viewport:
    c.viewportWidth !== null && c.viewportHeight !== null && c.viewportDpr !== null
      ? { width: c.viewportWidth, height: c.viewportHeight, dpr: c.viewportDpr }
      : null,
  screenshotFileId: c.screenshotFileId,
  browser: c.browser,
});

/**
 * The order's review rounds, oldest first (ui and final interleaved as they were opened), each with
 * its files in the founder's order and its comments oldest first. Both sides read the same shape.
 * `onlyId` reads one round (the answer of a write).
 */
export async function listReviews(db: Db, order: OrderRef, onlyId?: string): Promise<Review[]> {
  const rows = await db
    .select()
    .from(orderReviews)
    .where(and(eq(orderReviews.orderId, order.orderId), onlyId ? eq(orderReviews.id, onlyId) : undefined))
    .orderBy(asc(orderReviews.createdAt), asc(orderReviews.round));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [files, comments, decisions] = await Promise.all([
    db.select().from(orderReviewFiles).where(inArray(orderReviewFiles.reviewId, ids)).orderBy(asc(orderReviewFiles.position)),
    db
      .select()
      .from(orderReviewComments)
      .where(inArray(orderReviewComments.reviewId, ids))
      .orderBy(asc(orderReviewComments.createdAt), asc(orderReviewComments.id)),
    db
      .select({ reviewId: orderReviewDecisions.reviewId, comment: orderReviewDecisions.comment })
      .from(orderReviewDecisions)
      .where(inArray(orderReviewDecisions.reviewId, ids)),
  ]);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    round: r.round,
    title: r.title,
    note: r.note,
    fileIds: files.filter((f) => f.reviewId === r.id).map((f) => f.fileId),
    previewUrl: r.previewUrl,
    state: r.state,
    decidedAt: iso(r.decidedAt),
    decisionComment: decisions.find((d) => d.reviewId === r.id)?.comment ?? null,
    comments: comments.filter((c) => c.reviewId === r.id).map(toComment),
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * The customer's GET …/reviews in as few statements as the order allows
 * (docs/decisions/291-signed-in-reads-one-statement.md): ONE named statement reads reviewOrder's rule
 * (their own order past the checkout draft), whether it has rounds and whether its `order.seen` would
 * mark anything (`unseenSql`, the notices feature's expression; always true when unset); the rounds'
 * details are read only when there are rounds. Then `seen` publishes when it must.
 */
export async function listOwnReviews(
  deps: { database: Pick<Database, 'query'>; db: Db },
  publicId: string,
  userId: string,
  unseenSql: string,
): Promise<{ order: OrderRef; reviews: Review[]; unseen: boolean }> {
  const text = `select o.id as order_id, o.public_id as order_public_id, u.email as customer_email, ${unseenSql} as unseen,
         exists (select 1 from order_reviews r where r.order_id = o.id) as has_reviews
    from orders o join users u on u.id = o.user_id
   where o.public_id = $1 and o.user_id = $2 and o.state <> 'awaiting_advance'`;
  const [row] = await deps.database.query<{
    order_id: string;
    order_public_id: string;
    customer_email: string;
    unseen: boolean;
    has_reviews: boolean;
  }>(text, [publicId, userId], namedStatement('own_reviews', text));
  if (!row) throw notFound('Order not found.');
  const order: OrderRef = { orderId: row.order_id, orderPublicId: row.order_public_id, customerEmail: row.customer_email };
  return { order, reviews: row.has_reviews ? await listReviews(deps.db, order) : [], unseen: Boolean(row.unseen) };
}

/** One round as the API answers it, after its write committed. */
export async function readReview(db: Db, order: OrderRef, reviewId: string): Promise<Review> {
  const [review] = await listReviews(db, order, reviewId);
  if (!review) throw new Error(`readReview: no review ${reviewId}`);
  return review;
}
