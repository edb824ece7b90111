import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { DELIVERY_STAGE, STAGES, isPaymentStage, stageDoneText } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import { notices, type MessageSide } from '../../db/schema/order-messages.ts';
import type { ReviewRef } from '../../lib/domain-events.ts';
import { SEEN_KINDS, addNotice, markNoticesRead, unseenNoticesSql } from './notices.ts';

// What becomes a notice for whom (decision 155). Each reaction runs in the publisher's transaction:
// a notice exists exactly when its message, round, decision, pin or stage does. Notices hear of
// other features only through events — never through their routes' URLs.

const other = (side: MessageSide): MessageSide => (side === 'customer' ? 'agency' : 'customer');
const round = (r: ReviewRef) => `${r.kind === 'ui' ? 'UI' : 'Final'} design review, round ${r.round}`;

const stageSummary = (stage: number) => `${stageDoneText(STAGES[stage - 1] ?? `Stage ${stage}`)} (stage ${stage} of ${STAGES.length})`;

export function subscribeNotices(deps: AppDeps) {
  const { events } = deps;
  // The reads that publish `order.seen` ask first whether it would mark anything (decision 285).
  deps.queries.unseenNoticesSql = unseenNoticesSql;
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
    await addNotice(tx, {
      orderId: r.orderId,
      recipient: 'customer',
      kind: 'review_opened',
      refId: r.reviewId,
      summary: `${round(r)} is ready for you: "${r.title}"`,
      at: r.at,
    });
  });
  events.inTransaction('review.decided', async (r, tx) => {
    const what = r.decision === 'approve' ? `The customer approved the ${round(r)}` : `The customer requested changes on the ${round(r)}`;
    await addNotice(tx, {
      orderId: r.orderId,
      recipient: 'agency',
      kind: 'review_decided',
      refId: r.reviewId,
      summary: `${what}: "${r.title}"`,
      at: r.at,
    });
  });
  events.inTransaction('review.commented', async (c, tx) => {
    const who = c.author === 'customer' ? 'the customer' : 'the team';
    await addNotice(tx, {
      orderId: c.orderId,
      recipient: other(c.author),
      kind: 'review_comment',
      refId: c.commentId,
      summary: `A new comment by ${who} on the ${round(c)}`,
      at: c.at,
    });
  });
  // A stage completed by the founder (or by an approved review) joins the customer's batch: one
  // mail for stages completed in quick succession, none if the order page showed them first.
  // A payment's stages travel with its receipt, delivery with the delivery mail (order-mail).
  events.inTransaction('stage.completed', async (e, tx) => {
    if (isPaymentStage(e.stage) || e.stage === DELIVERY_STAGE) return;
    // A stage undone and completed again is news again: each completion is its own notice.
    await addNotice(tx, {
      orderId: e.orderId,
      recipient: 'customer',
      kind: 'stage_completed',
      refId: randomUUID(),
      summary: stageSummary(e.stage),
      at: e.at,
    });
  });
  // Taken back before the batch left: the customer is not told of a stage that is not done.
  events.inTransaction('stage.undone', async (e, tx) => {
    await tx
      .delete(notices)
      .where(
        and(
          eq(notices.orderId, e.orderId),
          eq(notices.kind, 'stage_completed'),
          eq(notices.summary, stageSummary(e.stage)),
          isNull(notices.sentAt),
        ),
      );
  });
  // The founder hears of a submitted brief and of the customer's files in the order's batch
  // (docs/decisions/277-founder-notices-brief-and-files.md); the agency's own uploads are no news to it.
  events.inTransaction('brief.submitted', async (e, tx) => {
    await addNotice(tx, {
      orderId: e.orderId,
      recipient: 'agency',
      kind: 'brief_submitted',
      refId: randomUUID(),
      summary: 'The customer submitted the brief',
      at: e.at,
    });
  });
  events.inTransaction('file.uploaded', async (e, tx) => {
    if (e.uploadedBy !== 'customer') return;
    await addNotice(tx, {
      orderId: e.orderId,
      recipient: 'agency',
      kind: 'customer_file',
      refId: e.fileId,
      summary: 'A new file from the customer',
      at: e.at,
    });
  });
  // What the reader saw in the app is not mailed to them (reviews' and the tracker's reads publish it).
  events.inTransaction('order.seen', async (e, tx) => {
    await markNoticesRead(tx, e.orderId, e.side, SEEN_KINDS[e.what], e.at);
  });
  // A change request waits for the other side (docs/decisions/260-change-events-and-waiting.md): the
  // founder hears of one the customer asked for, the customer of a quote to decide on — in the order's
  // batch. Each move is news of its own (a re-quote after a first quote was mailed is mailed again).
  events.inTransaction('change.updated', async (e, tx) => {
    if (e.state === 'requested' && e.by === 'customer')
      await addNotice(tx, {
        orderId: e.orderId,
        recipient: 'agency',
        kind: 'change_requested',
        refId: randomUUID(),
        summary: `The customer asked for a change: "${e.title}"`,
        at: e.at,
      });
    else if (e.state === 'quoted' && e.by === 'agency')
      await addNotice(tx, {
        orderId: e.orderId,
        recipient: 'customer',
        kind: 'change_quoted',
        refId: randomUUID(),
        summary: `A change is quoted and waits for your decision: "${e.title}"`,
        at: e.at,
      });
  });
  // A deleted person gets nothing more (decision 192): their side's notices go, so no batch is mailed.
  events.inTransaction('account.deleted', async (e, tx) => {
    await tx.delete(notices).where(and(eq(notices.recipient, 'customer'), inArray(notices.orderId, orderIdsOf(e.userId))));
  });
}
