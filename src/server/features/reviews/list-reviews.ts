import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Review, ReviewComment } from '../../../contract/reviews.ts';
import type { Db } from '../../db/client.ts';
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
  viewport: c.viewportWidth !== null && c.viewportHeight !== null && c.viewportDpr !== null ? { width: c.viewportWidth, height: c.viewportHeight, dpr: c.viewportDpr } : null,
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
    db.select().from(orderReviewComments).where(inArray(orderReviewComments.reviewId, ids)).orderBy(asc(orderReviewComments.createdAt), asc(orderReviewComments.id)),
    db.select({ reviewId: orderReviewDecisions.reviewId, comment: orderReviewDecisions.comment }).from(orderReviewDecisions).where(inArray(orderReviewDecisions.reviewId, ids)),
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

/** One round as the API answers it, after its write committed. */
export async function readReview(db: Db, order: OrderRef, reviewId: string): Promise<Review> {
  const [review] = await listReviews(db, order, reviewId);
  if (!review) throw new Error(`readReview: no review ${reviewId}`);
  return review;
}
