import { and, eq } from 'drizzle-orm';
import type { ReviewComment } from '../../../contract/reviews.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { orderReviewComments } from '../../db/schema/reviews.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { toComment } from './list-reviews.ts';
import { reviewOf, UUID } from './review-order.ts';

// The customer corrects or takes back their own pin (docs/decisions/219-review-and-tracker-polish.md)
// while the round is open and nobody of the agency has answered or resolved it: after that the
// conversation is on record. The round is locked for update, so an answer (which takes it for
// share) either comes before — and the edit is refused — or after, on the corrected text.

async function ownOpenPin(tx: Tx, order: OrderRef, reviewId: string, commentId: string) {
  const review = await reviewOf(tx, order, reviewId, 'update');
  const [pin] = UUID.test(commentId)
    ? await tx
        .select()
        .from(orderReviewComments)
        .where(
          and(
            eq(orderReviewComments.id, commentId),
            eq(orderReviewComments.reviewId, review.id),
            eq(orderReviewComments.author, 'customer'),
          ),
        )
    : [];
  if (!pin || pin.replyTo) throw notFound('Pin not found.');
  if (review.state !== 'open') throw conflict('This round is already decided: its pins can no longer be changed.');
  const [answer] = await tx
    .select({ id: orderReviewComments.id })
    .from(orderReviewComments)
    .where(and(eq(orderReviewComments.reviewId, review.id), eq(orderReviewComments.replyTo, pin.id)))
    .limit(1);
  if (answer || pin.resolvedAt)
    throw conflict('We have already answered this pin, so it stays as it is. Add a new pin or write in Messages.');
  return pin;
}

export async function editPin(deps: AppDeps, order: OrderRef, reviewId: string, commentId: string, text: string): Promise<ReviewComment> {
  return deps.db.transaction(async (tx) => {
    const pin = await ownOpenPin(tx, order, reviewId, commentId);
    if (pin.text === text) return toComment(pin);
    const [updated] = await tx.update(orderReviewComments).set({ text }).where(eq(orderReviewComments.id, pin.id)).returning();
    return toComment(updated!);
  });
}

export async function deletePin(deps: AppDeps, order: OrderRef, reviewId: string, commentId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const pin = await ownOpenPin(tx, order, reviewId, commentId);
    await tx.delete(orderReviewComments).where(eq(orderReviewComments.id, pin.id));
  });
}
