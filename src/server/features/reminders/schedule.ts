import { and, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { paymentReminders } from '../../db/schema/reminders.ts';
import type { Tx } from '../../db/client.ts';

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

/**
 * Called in the transaction that completes stage 13 while the remaining amount is unpaid (the
 * caller holds the order's row lock). Each completion plans a new round: after an undo (which
 * cancelled the pending jobs) the customer is told again that the amount is due, and reminded anew.
 */
export async function scheduleReminders(deps: AppDeps, tx: Tx, orderId: string, from: Date) {
  const [last] = await tx
    .select({
      round: sql<number>`coalesce(max(${paymentReminders.round}), 0)::int`,
      pending: sql<number>`count(*) filter (where ${paymentReminders.state} = 'pending')::int`,
    })
    .from(paymentReminders)
    .where(eq(paymentReminders.orderId, orderId));
  // A round still pending is never doubled.
  if (Number(last?.pending ?? 0) > 0) return;
  const round = Number(last?.round ?? 0) + 1;
  const plan = reminderPlan(deps.config.REMINDER_DAYS, from);
  await tx
    .insert(paymentReminders)
    .values(plan.map((p) => ({ orderId, round, ...p })))
    .onConflictDoNothing();
}

/** Called in the transaction that undoes stage 13: the remaining amount is not due any more. */
export async function cancelRemindersOnUndo(tx: Tx, orderId: string) {
  await tx
    .update(paymentReminders)
    .set({ state: 'cancelled', reason: 'undone' })
    .where(and(eq(paymentReminders.orderId, orderId), eq(paymentReminders.state, 'pending')));
}

/** Called in the settling transaction of the remaining payment: nothing more is sent. */
export async function cancelRemindersOnPayment(tx: Tx, orderId: string) {
  await tx
    .update(paymentReminders)
    .set({ state: 'cancelled', reason: 'paid' })
    .where(and(eq(paymentReminders.orderId, orderId), eq(paymentReminders.state, 'pending')));
}
