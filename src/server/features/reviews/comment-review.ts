import { and, eq, isNull, sql } from 'drizzle-orm';
import { REVIEW_LIMITS, type AgencyCommentBody, type ReviewComment } from '../../../contract/reviews.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { orderReviewComments, orderReviewFiles } from '../../db/schema/reviews.ts';
import { badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { toComment } from './list-reviews.ts';
import { reviewOf, reviewRef, UUID, type Viewer } from './review-order.ts';

/**
 * A pin on one of the round's files (the customer, while the round is open) or the agency's
 * comment, usually the answer to a pin (any time: answers come after "request changes"). The
 * round is share-locked, so a decision waits for a pin being added and a pin never lands on a
 * round decided a moment before. The founder's comment is audited like every admin write.
 */
export async function commentOnReview(
  deps: AppDeps,
  order: OrderRef,
  reviewId: string,
  viewer: Viewer,
  body: AgencyCommentBody,
): Promise<ReviewComment> {
  const row = await deps.events.transaction(async (tx) => {
    const review = await reviewOf(tx, order, reviewId, 'share');
    if (viewer.side === 'customer' && review.state !== 'open')
      throw conflict('This round is already decided: pins can be added only while a round is open.');
    // An answer takes the place of the pin it answers (a site pin has no file); a pin needs one of the round's files.
    let place: Pick<
      typeof orderReviewComments.$inferInsert,
      'fileId' | 'x' | 'y' | 'pageUrl' | 'selector' | 'viewportWidth' | 'viewportHeight' | 'viewportDpr'
    >;
    if (body.replyTo) {
      const [pin] = UUID.test(body.replyTo)
        ? await tx
            .select()
            .from(orderReviewComments)
            .where(
              and(
                eq(orderReviewComments.id, body.replyTo),
                eq(orderReviewComments.reviewId, review.id),
                isNull(orderReviewComments.replyTo),
              ),
            )
        : [];
      if (!pin) throw notFound('The pin to answer is not on this round.');
      const { fileId, x, y, pageUrl, selector, viewportWidth, viewportHeight, viewportDpr } = pin;
      place = { fileId, x, y, pageUrl, selector, viewportWidth, viewportHeight, viewportDpr };
    } else {
      const [file] = body.fileId
        ? await tx
            .select({ fileId: orderReviewFiles.fileId })
            .from(orderReviewFiles)
            .where(and(eq(orderReviewFiles.reviewId, review.id), eq(orderReviewFiles.fileId, body.fileId)))
        : [];
      if (!file) throw badRequest("This file is not part of this review round: pin one of the round's images.");
      place = { fileId: file.fileId, x: body.x, y: body.y };
    }
    await refuseFullRound(tx, review.id);

    const [inserted] = await tx
      .insert(orderReviewComments)
      .values({
        reviewId: review.id,
        ...place,
        text: body.text,
        author: viewer.side,
        authorUserId: viewer.userId,
        replyTo: body.replyTo ?? null,
      })
      .returning();
    const comment = inserted!;
    if (viewer.side === 'agency') {
      await recordAudit(tx, {
        actorUserId: viewer.userId,
        action: 'order.review.comment',
        entity: 'order',
        entityId: order.orderPublicId,
        before: null,
        after: {
          reviewId: review.id,
          round: review.round,
          kind: review.kind,
          commentId: comment.id,
          replyTo: comment.replyTo,
          fileId: comment.fileId,
        },
      });
    }
    await deps.events.publish(tx, 'review.commented', {
      ...reviewRef(order, review),
      commentId: comment.id,
      author: viewer.side,
      authorUserId: viewer.userId,
      fileId: comment.fileId,
      replyTo: comment.replyTo,
      text: comment.text,
      at: comment.createdAt,
    });
    return comment;
  });
  return toComment(row);
}

/**
 * The founder marks a comment resolved. Resolving a resolved comment changes nothing and records
 * nothing (a double click is not a second action). Any round state: pins are resolved after the
 * customer asked for changes.
 */
export async function resolveReviewComment(
  deps: AppDeps,
  order: OrderRef,
  reviewId: string,
  commentId: string,
  actorUserId: string,
): Promise<ReviewComment> {
  return deps.db.transaction(async (tx) => {
    const review = await reviewOf(tx, order, reviewId, 'share');
    const [comment] = UUID.test(commentId)
      ? await tx
          .select()
          .from(orderReviewComments)
          .where(and(eq(orderReviewComments.id, commentId), eq(orderReviewComments.reviewId, review.id)))
          .for('update')
      : [];
    if (!comment) throw notFound('Comment not found.');
    if (comment.resolvedAt) return toComment(comment);
    const [resolved] = await tx
      .update(orderReviewComments)
      .set({ resolvedAt: new Date(), resolvedByUserId: actorUserId })
      .where(eq(orderReviewComments.id, comment.id))
      .returning();
    await recordAudit(tx, {
      actorUserId,
      action: 'order.review.comment.resolve',
      entity: 'order',
      entityId: order.orderPublicId,
      before: { commentId: comment.id, resolved: false },
      after: { commentId: comment.id, resolved: true, reviewId: review.id, round: review.round, kind: review.kind },
    });
    return toComment(resolved!);
  });
}

/** A round holds at most REVIEW_LIMITS.commentsPerRound comments (image and site pins alike). */
export async function refuseFullRound(tx: Tx, reviewId: string): Promise<void> {
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(orderReviewComments)
    .where(eq(orderReviewComments.reviewId, reviewId));
  if ((count?.n ?? 0) >= REVIEW_LIMITS.commentsPerRound)
    throw conflict(
      `This round has ${REVIEW_LIMITS.commentsPerRound} comments, the most one round holds: continue in the next round or in messages.`,
    );
}

/** How many pins the customer dropped on a round (asking for changes needs a comment or one pin). */
export async function customerPins(tx: Tx, reviewId: string): Promise<number> {
  const [n] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(orderReviewComments)
    .where(and(eq(orderReviewComments.reviewId, reviewId), eq(orderReviewComments.author, 'customer')));
  return n?.n ?? 0;
}
