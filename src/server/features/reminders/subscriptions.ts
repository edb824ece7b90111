import { and, eq, inArray } from 'drizzle-orm';
import { paymentReminders } from '../../db/schema/reminders.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import { REMAINING_PAYMENT_STAGE } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { installments } from '../../db/schema/orders.ts';
import { cancelRemindersOnPayment, cancelRemindersOnUndo, scheduleReminders } from './schedule.ts';
import { runDueReminders } from './run-reminders.ts';

/** Launch Readiness: the stage after which the remaining amount is due. */
const LAUNCH_READINESS = REMAINING_PAYMENT_STAGE - 1;

/** The stored job that sends what is due now (a round's "now due" mail) soon after the commit. */
const RUN_REMINDERS = 'reminders.run';

/**
 * The remaining-payment reminders follow the order's events (decisions 095 and 098), each change in
 * the transaction of the event that causes it: Launch Readiness done with the remaining unpaid
 * plans a round and stores a job that sends its first e-mail ("now due") as soon as a job worker
 * takes it — not inside the request, and not lost if the process dies after the commit; Launch
 * Readiness taken back, or the remaining paid, cancels what is pending.
 */
export function subscribeReminders(deps: AppDeps) {
  deps.jobs.handle(RUN_REMINDERS, async (_payload, now) => {
    await runDueReminders(deps, now);
  });
  deps.events.inTransaction('stage.completed', async (e, tx) => {
    if (e.stage !== LAUNCH_READINESS) return;
    // The publisher holds the order's row lock, so the installment cannot be paid meanwhile.
    const [remaining] = await tx
      .select({ state: installments.state })
      .from(installments)
      .where(and(eq(installments.orderId, e.orderId), eq(installments.kind, 'remaining')))
      .limit(1);
    if (!remaining || remaining.state === 'paid') return;
    await scheduleReminders(deps, tx, e.orderId, e.at);
    await deps.jobs.enqueue(tx, RUN_REMINDERS, { orderId: e.orderId });
  });
  deps.events.inTransaction('stage.undone', async (e, tx) => {
    if (e.stage === LAUNCH_READINESS) await cancelRemindersOnUndo(tx, e.orderId);
  });
  deps.events.inTransaction('payment.settled', async (e, tx) => {
    if (e.kind === 'remaining') await cancelRemindersOnPayment(tx, e.orderId);
  });
  // A cancelled order owes nothing more (docs/decisions/321-cancel-and-refund.md).
  deps.events.inTransaction('order.cancelled', async (e, tx) => {
    await tx
      .update(paymentReminders)
      .set({ state: 'cancelled', reason: 'order cancelled' })
      .where(and(eq(paymentReminders.orderId, e.orderId), eq(paymentReminders.state, 'pending')));
  });
  // A deleted person is never reminded again (decision 192).
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx
      .update(paymentReminders)
      .set({ state: 'cancelled', reason: 'account deleted' })
      .where(and(eq(paymentReminders.state, 'pending'), inArray(paymentReminders.orderId, orderIdsOf(e.userId))));
  });
}
