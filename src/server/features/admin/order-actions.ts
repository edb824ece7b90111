import { eq, sql } from 'drizzle-orm';
import { isDeliveryUrl } from '../../../domain/admin.ts';
import type { AppDeps } from '../../deps.ts';
import { adminOrderNotes } from '../../db/schema/admin.ts';
import { orders } from '../../db/schema/orders.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import { completeNextStage, undoLastStage } from '../tracker/complete-next-stage.ts';
import { recordAudit } from '../../lib/audit-log.ts';

// The tracker's service functions do the work, the customer's e-mail and — given the
// actor — the audit record, in the same transaction as the change, whichever
// admin route reached them.

export async function adminCompleteNextStage(deps: AppDeps, actorUserId: string, publicId: string, note: string | undefined) {
  const change = await completeNextStage(deps, publicId, { note: note || null, actorUserId });
  return { orderId: publicId, completedStages: change.completedSteps };
}

export async function adminUndoLastStage(deps: AppDeps, actorUserId: string, publicId: string, reason: string) {
  const change = await undoLastStage(deps, publicId, { actorUserId, reason });
  return { orderId: publicId, completedStages: change.completedSteps };
}

/**
 * Sets the delivery link. The tracker only shows it to the customer once the remaining payment is
 * in; here it is only stored, after checking it is a real http(s) address.
 */
export async function setDeliveryLink(deps: AppDeps, actorUserId: string, publicId: string, url: string) {
  if (!isDeliveryUrl(url)) throw badRequest('The delivery link must be an http or https address.');
  return deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.publicId, publicId)).for('update');
    if (!order || order.state === 'awaiting_advance') throw notFound('Order not found.');
    await tx
      .update(orders)
      .set({ deliveryUrl: url, updatedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    await recordAudit(tx, {
      actorUserId,
      action: 'order.delivery_link.set',
      entity: 'order',
      entityId: publicId,
      before: { deliveryUrl: order.deliveryUrl },
      after: { deliveryUrl: url },
    });
    return { deliveryUrl: url };
  });
}

export async function setInternalNote(deps: AppDeps, actorUserId: string, publicId: string, note: string) {
  return deps.db.transaction(async (tx) => {
    const [order] = await tx.select({ id: orders.id, state: orders.state }).from(orders).where(eq(orders.publicId, publicId));
    if (!order || order.state === 'awaiting_advance') throw notFound('Order not found.');
    const [before] = await tx.select().from(adminOrderNotes).where(eq(adminOrderNotes.orderId, order.id)).for('update');
    await tx
      .insert(adminOrderNotes)
      .values({ orderId: order.id, note, updatedBy: actorUserId })
      .onConflictDoUpdate({ target: adminOrderNotes.orderId, set: { note, updatedBy: actorUserId, updatedAt: sql`now()` } });
    await recordAudit(tx, {
      actorUserId,
      action: 'order.internal_note.set',
      entity: 'order',
      entityId: publicId,
      before: { note: before?.note ?? null },
      after: { note },
    });
    return { note };
  });
}
