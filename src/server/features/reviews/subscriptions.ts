import { and, eq, inArray, or } from 'drizzle-orm';
import { ERASED_TEXT } from '../../../domain/deleted-account.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { orderReviewComments, orderReviewDecisions, orderReviewFiles, orderReviews } from '../../db/schema/reviews.ts';
import type { ReviewKind } from '../../../contract/reviews.ts';
import { STAGES } from '../../../domain/tracker.ts';
import { completeStageIfNext } from '../tracker/complete-next-stage.ts';
import { REVIEW_SOCKET_EVENTS, type ReviewChangedEvent } from '../../../contract/reviews.ts';
import type { ChatServer } from '../../plugins/socket.ts';
import { orderRoom } from '../chat/rooms.ts';

/** The tracker stage an approved round of each kind completes: "UI Review" (5), "Final Review" (12). */
export const STAGE_OF_KIND: Record<ReviewKind, number> = { ui: STAGES.indexOf('UI Review') + 1, final: STAGES.indexOf('Final Review') + 1 };
const KIND_OF_STAGE = new Map(Object.entries(STAGE_OF_KIND).map(([kind, stage]) => [stage, kind as ReviewKind]));
const NAME_OF_KIND: Record<ReviewKind, string> = { ui: 'UI design', final: 'website' };

const approvedRound = async (tx: Tx, orderId: string, kind: ReviewKind) => {
  const [row] = await tx
    .select({ round: orderReviews.round })
    .from(orderReviews)
    .where(and(eq(orderReviews.orderId, orderId), eq(orderReviews.kind, kind), eq(orderReviews.state, 'approved')))
    .orderBy(orderReviews.round)
    .limit(1);
  return row?.round ?? null;
};

// Read by both sides (the founder's tracker too), so it names who approved rather than "You".
const stageNote = (kind: ReviewKind, round: number) => `The customer approved the ${NAME_OF_KIND[kind]} (review round ${round}).`;

/**
 * The approval → stage rule (decision 150), through the tracker's own operation and in the
 * deciding (or completing) transaction:
 * - an approved `ui` round completes "UI Review" (5) when 1–4 are complete, an approved `final`
 *   round "Final Review" (12) when 1–11 are;
 * - otherwise the approval is recorded and the stage waits: when the founder completes the stage
 *   before it (4 or 11) and an approved round of the kind exists, the stage follows at once.
 * The tracker does not know any of this: it publishes `stage.completed`, reviews react.
 * Also registers the order-files in-use check: a file shown in a round cannot be deleted.
 */
export function subscribeReviews(deps: AppDeps) {
  deps.events.inTransaction('review.decided', async (e, tx) => {
    if (e.decision !== 'approve') return;
    await completeStageIfNext(deps, tx, e.orderPublicId, STAGE_OF_KIND[e.kind], stageNote(e.kind, e.round));
  });
  deps.events.inTransaction('stage.completed', async (e, tx) => {
    const kind = KIND_OF_STAGE.get(e.stage + 1);
    if (!kind) return;
    const round = await approvedRound(tx, e.orderId, kind);
    if (round !== null) await completeStageIfNext(deps, tx, e.orderPublicId, e.stage + 1, stageNote(kind, round));
  });
  // A deleted person's pins and answers become a neutral marker and their decision comments go
  // (decision 192); the rounds, decisions and their files stay: they record what was approved.
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    const theirRounds = tx
      .select({ id: orderReviews.id })
      .from(orderReviews)
      .where(inArray(orderReviews.orderId, orderIdsOf(e.userId)));
    await tx
      .update(orderReviewComments)
      .set({ text: ERASED_TEXT })
      .where(
        or(
          eq(orderReviewComments.authorUserId, e.userId),
          and(eq(orderReviewComments.author, 'customer'), inArray(orderReviewComments.reviewId, theirRounds)),
        ),
      );
    await tx
      .update(orderReviewDecisions)
      .set({ comment: null })
      .where(or(eq(orderReviewDecisions.decidedByUserId, e.userId), inArray(orderReviewDecisions.reviewId, theirRounds)));
  });
  deps.queries.fileInUse.push(fileInAReview);
  deps.queries.fileApproved.push(fileInAnApprovedRound);
}

/** A file shown in a round the customer approved is part of that approval's record (docs/decisions/275-account-deletion-up-front.md). */
async function fileInAnApprovedRound(tx: Tx, fileId: string): Promise<boolean> {
  const [approved] = await tx
    .select({ id: orderReviews.id })
    .from(orderReviewFiles)
    .innerJoin(orderReviews, eq(orderReviews.id, orderReviewFiles.reviewId))
    .where(and(eq(orderReviewFiles.fileId, fileId), eq(orderReviews.state, 'approved')))
    .limit(1);
  return Boolean(approved);
}

/** The order-files in-use check: why a file cannot be deleted, or null (decision 142). */
async function fileInAReview(tx: Tx, fileId: string): Promise<string | null> {
  const [used] = await tx
    .select({ kind: orderReviews.kind, round: orderReviews.round })
    .from(orderReviewFiles)
    .innerJoin(orderReviews, eq(orderReviews.id, orderReviewFiles.reviewId))
    .where(eq(orderReviewFiles.fileId, fileId))
    .orderBy(orderReviews.createdAt)
    .limit(1);
  return used ? `it is part of ${used.kind === 'ui' ? 'UI' : 'final'} review round ${used.round}` : null;
}

// Live review rounds: a round opened, pinned or decided is announced to the order's room (the one
// the order page joins with `joinOrder`), so another tab or the other side reads it again — a
// decided round stops offering Approve everywhere at once. After commit: nobody hears of what is
// not stored; the adapter carries it to sockets on every instance.
export function broadcastReviews(io: ChatServer, deps: AppDeps) {
  const announce = (orderId: string, reviewId: string) => {
    const event: ReviewChangedEvent = { orderId, reviewId };
    io.to(orderRoom(orderId)).emit(REVIEW_SOCKET_EVENTS.reviewChanged, event);
  };
  deps.events.afterCommit('review.decided', async (e) => announce(e.orderPublicId, e.reviewId));
  deps.events.afterCommit('review.commented', async (e) => announce(e.orderPublicId, e.reviewId));
  deps.events.afterCommit('review.opened', async (e) => announce(e.orderPublicId, e.reviewId));
}
