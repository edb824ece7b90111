import { and, eq, sql } from 'drizzle-orm';
import { ADVANCE_STAGE, DELIVERY_STAGE, REMAINING_PAYMENT_STAGE, STAGE_COUNT, STAGES, isPaymentStage } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orderStages, orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import type { PaymentSettled } from '../../lib/domain-events.ts';

// The tracker is the only writer of stage rows and publishes what happens to them
// (stage.completed, stage.undone, and order.delivered — from here only); a payment's stages are
// completed here too, in reaction to payment.settled (subscriptions.ts). The customer's e-mails,
// notices and the payment reminders subscribe (decision 100); it imports none of them.

export interface StageChange {
  orderPublicId: string;
  completedSteps: number;
}

async function lockOrder(tx: Tx, publicId: string) {
  const [row] = await tx
    .select({ order: orders, email: users.email, remainingState: installments.state, remainingPaidAt: installments.paidAt })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(installments, and(eq(installments.orderId, orders.id), eq(installments.kind, 'remaining')))
    .where(eq(orders.publicId, publicId))
    .for('update', { of: orders })
    .limit(1);
  if (!row || row.order.state === 'awaiting_advance') throw notFound('Order not found.');
  // A cancelled order's stages no longer move (docs/decisions/321-cancel-and-refund.md).
  if (row.order.state === 'cancelled') throw conflict('This order is cancelled: its stages no longer move.');
  return { ...row, tx, completed: await completedCount(tx, row.order.id) };
}

async function completedCount(tx: Tx, orderId: string): Promise<number> {
  const [done] = await tx
    .select({ n: sql<number>`coalesce(max(${orderStages.stage}), 0)::int` })
    .from(orderStages)
    .where(eq(orderStages.orderId, orderId));
  return done?.n ?? 0;
}

/**
 * Completes the next stage of an order with today's date and an optional customer-visible note
 *; the back office puts a screen on it. Stage 14 belongs to the remaining
 * payment; stage 15 needs the delivery link. Every stage completed is published (the customer is
 * e-mailed by a subscriber). With an `actorUserId` (an admin, through any route) the change is
 * audited in its transaction.
 */
export async function completeNextStage(
  deps: AppDeps,
  orderPublicId: string,
  input: { note?: string | null; actorUserId?: string | null; deliveryUrl?: string | null },
): Promise<StageChange> {
  const note = input.note?.trim() ? input.note.trim().slice(0, 500) : null;
  return deps.events.transaction(async (tx) => {
    const row = await lockOrder(tx, orderPublicId);
    const result = await completeLocked(row);
    if (input.actorUserId) {
      const actorUserId = input.actorUserId;
      await recordAudit(tx, {
        actorUserId,
        action: 'order.stage.complete',
        entity: 'order',
        entityId: orderPublicId,
        before: { completedStages: row.completed },
        after: { completedStages: result.completedSteps, stage: STAGES[result.completedSteps - 1], note },
      });
      const url = input.deliveryUrl?.trim();
      if (url && url !== row.order.deliveryUrl) {
        await recordAudit(tx, {
          actorUserId,
          action: 'order.delivery_link.set',
          entity: 'order',
          entityId: orderPublicId,
          before: { deliveryUrl: row.order.deliveryUrl },
          after: { deliveryUrl: url },
        });
      }
    }
    // A subscriber may have completed a stage after it in this transaction (an approved design
    // review completes "UI Review" as soon as "UI Completed" is done — decision 150): answer what is done now.
    return { ...result, completedSteps: await completedCount(tx, row.order.id) };
  });

  async function completeLocked(row: Awaited<ReturnType<typeof lockOrder>>): Promise<StageChange> {
    const tx = row.tx;
    const next = row.completed + 1;
    if (next > STAGE_COUNT) throw conflict('All stages are already complete.');
    const now = new Date();
    // The link may be attached before the last payment; it is shown only once that is paid.
    const url = input.deliveryUrl?.trim() || row.order.deliveryUrl;
    if (input.deliveryUrl !== undefined && input.deliveryUrl !== null) {
      if (!url || !/^https?:\/\/\S+$/i.test(url)) throw badRequest('The delivery link must be an http or https address.');
      await tx.update(orders).set({ deliveryUrl: url, updatedAt: now }).where(eq(orders.id, row.order.id));
    }
    const ref = { orderId: row.order.id, orderPublicId, customerEmail: row.email };
    const complete = async (stage: number, at: Date, stageNote: string | null) => {
      await tx
        .insert(orderStages)
        .values({ orderId: row.order.id, stage, completedAt: at, note: stageNote, actorUserId: input.actorUserId ?? null });
      await deps.events.publish(tx, 'stage.completed', { ...ref, stage, at, note: stageNote });
    };
    const deliver = async (deliveryUrl: string, stageNote: string | null) => {
      await tx.update(orders).set({ state: 'delivered', updatedAt: now }).where(eq(orders.id, row.order.id));
      await complete(DELIVERY_STAGE, now, stageNote);
      await deps.events.publish(tx, 'order.delivered', { ...ref, deliveryUrl, at: now });
    };
    if (next === REMAINING_PAYMENT_STAGE) {
      if (row.remainingState !== 'paid') throw conflict(`"${STAGES[next - 1]}" is completed by the customer's remaining payment.`);
      await complete(next, row.remainingPaidAt ?? now, note);
      return { orderPublicId, completedSteps: next };
    }
    if (next === DELIVERY_STAGE) {
      if (!url) throw badRequest('A delivery link (http or https) is needed to complete Website Delivery.');
      await deliver(url, note);
      return { orderPublicId, completedSteps: next };
    }
    if (isPaymentStage(next)) throw conflict('The advance payment completes the first stage.');
    await complete(next, now, note);
    // A customer who paid the remaining early gets stage 14 as soon as stage 13 is done.
    if (next === REMAINING_PAYMENT_STAGE - 1 && row.remainingState === 'paid') {
      await complete(REMAINING_PAYMENT_STAGE, row.remainingPaidAt ?? now, null);
      if (!url) return { orderPublicId, completedSteps: REMAINING_PAYMENT_STAGE };
      await deliver(url, null);
      return { orderPublicId, completedSteps: DELIVERY_STAGE };
    }
    // Launch Readiness with the remaining amount unpaid plans the payment reminders: a subscriber
    // of stage.completed does it in this transaction.
    return { orderPublicId, completedSteps: next };
  }
}

/**
 * Completes `stage` in the caller's transaction if it is the next one, and says whether it did.
 * For another feature's reaction to its own event (an approved design review completes "UI Review"
 * or "Final Review", decision 150): the rule "stages in order" stays here, and the stage is
 * published like any other. Stages with rules of their own (payments, 13, delivery) are not for this.
 */
export async function completeStageIfNext(
  deps: AppDeps,
  tx: Tx,
  orderPublicId: string,
  stage: number,
  note: string | null,
): Promise<boolean> {
  if (stage < 2 || stage >= REMAINING_PAYMENT_STAGE - 1) throw new Error(`completeStageIfNext: stage ${stage} has rules of its own`);
  const row = await lockOrder(tx, orderPublicId);
  if (row.completed !== stage - 1) return false;
  const at = new Date();
  await tx.insert(orderStages).values({ orderId: row.order.id, stage, completedAt: at, note, actorUserId: null });
  await deps.events.publish(tx, 'stage.completed', { orderId: row.order.id, orderPublicId, customerEmail: row.email, stage, at, note });
  return true;
}

/**
 * Takes back the last stage the founder completed (not a payment stage). With an `actorUserId` the
 * change and its reason are audited in the same transaction.
 */
export async function undoLastStage(
  deps: AppDeps,
  orderPublicId: string,
  input: { actorUserId?: string | null; reason?: string | null } = {},
): Promise<StageChange> {
  return deps.events.transaction(async (tx) => {
    const row = await lockOrder(tx, orderPublicId);
    const last = row.completed;
    if (last === 0 || isPaymentStage(last)) throw conflict('Stages completed by a payment cannot be undone.');
    const [removed] = await tx
      .delete(orderStages)
      .where(and(eq(orderStages.orderId, row.order.id), eq(orderStages.stage, last)))
      .returning({ note: orderStages.note });
    if (input.actorUserId) {
      await recordAudit(tx, {
        actorUserId: input.actorUserId,
        action: 'order.stage.undo',
        entity: 'order',
        entityId: orderPublicId,
        before: { completedStages: last, stage: STAGES[last - 1], note: removed?.note ?? null },
        after: { completedStages: last - 1, reason: input.reason ?? null },
      });
    }
    if (last === DELIVERY_STAGE) {
      await tx.update(orders).set({ state: 'paid', updatedAt: new Date() }).where(eq(orders.id, row.order.id));
    }
    // Launch Readiness taken back: the remaining amount is not due yet, so the reminders'
    // subscriber cancels the pending ones (completing it again plans a new round — decision 098).
    await deps.events.publish(tx, 'stage.undone', { orderId: row.order.id, orderPublicId, customerEmail: row.email, stage: last });
    return { orderPublicId, completedSteps: last - 1 };
  });
}

/**
 * The stages a settled payment completes, in the settling transaction: the advance completes
 * "Advance Payment"; the remaining completes "Remaining Payment" once Launch Readiness is done
 * (else stage 13 brings it later, above), and delivers when the founder attached the link already.
 */
export async function completePaymentStages(deps: AppDeps, tx: Tx, e: PaymentSettled): Promise<void> {
  const row = await lockOrder(tx, e.orderPublicId);
  const ref = { orderId: e.orderId, orderPublicId: e.orderPublicId, customerEmail: e.customerEmail };
  const complete = async (stage: number) => {
    const added = await tx
      .insert(orderStages)
      .values({ orderId: e.orderId, stage, completedAt: e.paidAt })
      .onConflictDoNothing()
      .returning({ stage: orderStages.stage });
    if (added.length) await deps.events.publish(tx, 'stage.completed', { ...ref, stage, at: e.paidAt, note: null });
  };
  if (e.kind === 'advance') return complete(ADVANCE_STAGE);
  if (row.completed !== REMAINING_PAYMENT_STAGE - 1) return;
  await complete(REMAINING_PAYMENT_STAGE);
  const deliveryUrl = row.order.deliveryUrl;
  if (!deliveryUrl) return;
  await tx.update(orders).set({ state: 'delivered', updatedAt: e.paidAt }).where(eq(orders.id, e.orderId));
  await complete(DELIVERY_STAGE);
  await deps.events.publish(tx, 'order.delivered', { ...ref, deliveryUrl, at: e.paidAt });
}
