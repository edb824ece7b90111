import { and, asc, eq } from 'drizzle-orm';
import type { Review, ReviewDecisionBody } from '../../../contract/reviews.ts';
import type { AppDeps } from '../../deps.ts';
import { orderFiles } from '../../db/schema/order-files.ts';
import { orderReviewDecisions, orderReviewFiles, orderReviews } from '../../db/schema/reviews.ts';
import { badRequest, conflict } from '../../lib/app-error.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { customerPins } from './comment-review.ts';
import { readReview } from './list-reviews.ts';
import { reviewOf, reviewRef, type ReviewRow } from './review-order.ts';

const alreadyDecided = (review: Pick<ReviewRow, 'state'>) =>
  conflict(
    `This round was already decided (${review.state === 'approved' ? 'approved' : 'changes requested'}): a round is decided only once.`,
  );

/**
 * The customer decides an open round, once (decision 150). Two decisions racing: the round's row
 * lock makes the second wait and then read the round decided (409); the conditional update and the
 * decision row's primary key would refuse a second anyway. The decision is a record — who,
 * when, the round, and the files with their sha-256 at that moment. What follows (the delivery
 * date, "UI Review"/"Final Review" completed, notices) hangs on `review.decided`, in this transaction.
 */
export async function decideReview(
  deps: AppDeps,
  order: OrderRef,
  reviewId: string,
  userId: string,
  body: ReviewDecisionBody,
): Promise<Review> {
  const comment = body.comment || null;
  await deps.events.transaction(async (tx) => {
    const review = await reviewOf(tx, order, reviewId, 'update');
    if (review.state !== 'open') throw alreadyDecided(review);
    if (body.decision === 'request_changes' && !comment && (await customerPins(tx, review.id)) === 0) {
      throw badRequest('Say what to change: write a comment or drop a pin on the design.');
    }
    const at = new Date();
    const [decided] = await tx
      .update(orderReviews)
      .set({ state: body.decision === 'approve' ? 'approved' : 'changes_requested', decidedAt: at })
      .where(and(eq(orderReviews.id, review.id), eq(orderReviews.state, 'open')))
      .returning({ state: orderReviews.state });
    if (!decided) {
      const [now] = await tx.select({ state: orderReviews.state }).from(orderReviews).where(eq(orderReviews.id, review.id));
      throw alreadyDecided(now ?? review);
    }
    const files = await tx
      .select({ id: orderFiles.id, name: orderFiles.name, sha256: orderFiles.sha256 })
      .from(orderReviewFiles)
      .innerJoin(orderFiles, eq(orderFiles.id, orderReviewFiles.fileId))
      .where(eq(orderReviewFiles.reviewId, review.id))
      .orderBy(asc(orderReviewFiles.position));
    await tx
      .insert(orderReviewDecisions)
      .values({ reviewId: review.id, decision: body.decision, comment, decidedByUserId: userId, decidedAt: at, files });
    await deps.events.publish(tx, 'review.decided', {
      ...reviewRef(order, review),
      decision: body.decision,
      comment,
      decidedByUserId: userId,
      fileIds: files.map((f) => f.id),
      at,
    });
  });
  return readReview(deps.db, order, reviewId);
}
