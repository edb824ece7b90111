import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { paymentReminders } from '../../db/schema/reminders.ts';
import type { Tx } from '../invoices/issue-invoice.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The jobs for one order from the moment stage 13 completes: due now, each reminder day, founder last. */
export function reminderPlan(days: readonly number[], from: Date) {
  const at = (d: number) => new Date(from.getTime() + d * DAY_MS);
  const last = days.length ? days[days.length - 1]! : 0;
  return [
    { step: 0, kind: 'due' as const, dueAt: from },
    ...days.map((d, i) => ({
      step: i + 1,
      kind: 'reminder' as const,
      dueAt: at(d),
    })),
    { step: days.length + 1, kind: 'founder' as const, dueAt: at(last) },
  ];
}

/** Called in the transaction that completes stage 13 while the remaining amount is unpaid. */
export async function scheduleReminders(deps: AppDeps, tx: Tx, orderId: string, from: Date) {
  const plan = reminderPlan(deps.config.REMINDER_DAYS, from);
  // Stage 13 undone and done again does not plan twice.
  await tx
    .insert(paymentReminders)
    .values(plan.map((p) => ({ orderId, ...p })))
    .onConflictDoNothing();
}

/** Called in the settling transaction of the remaining payment: nothing more is sent. */
export async function cancelRemindersOnPayment(tx: Tx, orderId: string) {
  await tx
    .update(paymentReminders)
    .set({ state: 'cancelled', reason: 'paid' })
    .where(and(eq(paymentReminders.orderId, orderId), eq(paymentReminders.state, 'pending')));
}
