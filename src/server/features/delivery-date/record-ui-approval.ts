import { and, eq, isNull, sql } from 'drizzle-orm';
import { dueDateAfter } from '../../../domain/delivery-date.ts';
import type { Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';

export interface UiApproval {
  uiApprovedAt: Date;
  dueDate: string;
  /** False when the order already had an approval: the first one stands (decision 147). */
  recorded: boolean;
}

/**
 * Records the customer's approval of the UI design on an order (internal id) and sets its due date:
 * the approval's UTC day + `deliveryDays` (config DELIVERY_DAYS_AFTER_UI_APPROVAL) + the days of
 * changes already paid (orders.change_days). Runs in the
 * caller's transaction — this feature's subscription to `review.decided` (subscriptions.ts) calls it
 * when a `ui` round is approved, so the decision and the date are stored together.
 *
 * Only the first approval sets the date: a later `ui` round approved (changes asked after
 * approving) does not move the promise, and a redelivered event changes nothing. Returns what the
 * order holds afterwards; throws if the order does not exist (a programming error of the caller).
 */
export async function recordUiApproval(tx: Tx, orderId: string, at: Date, deliveryDays: number): Promise<UiApproval> {
  const dueDate = dueDateAfter(at, deliveryDays);
  const [set] = await tx
    .update(orders)
    // Days of changes paid (or included) before the approval are added now (docs/decisions/251-change-due-date.md).
    .set({ uiApprovedAt: at, dueDate: sql`(${dueDate}::date + ${orders.changeDays})`, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), isNull(orders.uiApprovedAt)))
    .returning({ uiApprovedAt: orders.uiApprovedAt, dueDate: orders.dueDate });
  if (set) return { uiApprovedAt: set.uiApprovedAt!, dueDate: set.dueDate!, recorded: true };
  const [held] = await tx.select({ uiApprovedAt: orders.uiApprovedAt, dueDate: orders.dueDate }).from(orders).where(eq(orders.id, orderId));
  if (!held?.uiApprovedAt || !held.dueDate) throw new Error(`recordUiApproval: no order ${orderId}`);
  return { uiApprovedAt: held.uiApprovedAt, dueDate: held.dueDate, recorded: false };
}
