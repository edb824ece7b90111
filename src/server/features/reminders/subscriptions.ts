import { and, eq, inArray } from 'drizzle-orm';
import { paymentReminders } from '../../db/schema/reminders.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import { REMAINING_PAYMENT_STAGE } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { installments } from '../../db/schema/orders.ts';
import type { StageCompleted } from '../../lib/domain-events.ts';
import { cancelRemindersOnPayment, cancelRemindersOnUndo, scheduleReminders } from './schedule.ts';
import { runDueReminders } from './run-reminders.ts';

/** Launch Readiness: the stage after which the remaining amount is due. */
const LAUNCH_READINESS = REMAINING_PAYMENT_STAGE - 1;

/**
 * The remaining-payment reminders follow the order's events (decisions 095 and 098), each change in
 * the transaction of the event that causes it: Launch Readiness done with the remaining unpaid
 * plans a round, and its first e-mail ("now due") goes out right after commit; Launch Readiness
 * taken back, or the remaining paid, cancels what is pending.
 */
export function subscribeReminders(deps: AppDeps) {
  // The events for which a round was planned: only those send "now due" at once.
  const planned = new WeakSet<StageCompleted>();

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
    planned.add(e);
  });
  deps.events.afterCommit('stage.completed', async (e) => {
    if (planned.has(e)) await runDueReminders(deps);
  });
  deps.events.inTransaction('stage.undone', async (e, tx) => {
    if (e.stage === LAUNCH_READINESS) await cancelRemindersOnUndo(tx, e.orderId);
  });
  deps.events.inTransaction('payment.settled', async (e, tx) => {
    if (e.kind === 'remaining') await cancelRemindersOnPayment(tx, e.orderId);
  });
  // A deleted person is never reminded again (decision 192).
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx
      .update(paymentReminders)
      .set({ state: 'cancelled', reason: 'account deleted' })
      .where(and(eq(paymentReminders.state, 'pending'), inArray(paymentReminders.orderId, orderIdsOf(e.userId))));
  });
}
