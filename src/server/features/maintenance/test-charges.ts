import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { orders } from '../../db/schema/orders.ts';
import { moneyContext } from '../../lib/money-context.ts';
import type { TestCheckoutProvider } from '../../integrations/payments/test-checkout.ts';
import { type ChangeOutcome, applySubscriptionChange } from './apply-subscription-event.ts';

// The built-in test checkout plays Razorpay's part for subscriptions: the
// subscription lives in our database, and a charge is applied through the same function a
// `subscription.charged` webhook goes through — so the whole flow runs with no account anywhere.

const addMonth = (d: Date) => {
  const next = new Date(d);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

/** What a period starting at `periodStart` costs: the pending amount from its date on (docs/decisions/322-maintenance-plan-gst.md). */
const amountFor = (sub: typeof maintenanceSubscriptions.$inferSelect, periodStart: Date) =>
  sub.pendingAmount !== null && sub.pendingFrom !== null && periodStart >= sub.pendingFrom ? sub.pendingAmount : sub.amount;

/** The built-in provider, or null when Razorpay is configured (then only Razorpay charges). */
export function testProviderOf(deps: AppDeps): TestCheckoutProvider | null {
  const { provider } = moneyContext(deps);
  return provider.name === 'test' ? (provider as TestCheckoutProvider) : null;
}

/** A test subscription with its order's public id, or undefined. */
export async function findTestSubscription(deps: AppDeps, providerSubscriptionId: string) {
  const [row] = await deps.db
    .select({ sub: maintenanceSubscriptions, orderPublicId: orders.publicId })
    .from(maintenanceSubscriptions)
    .innerJoin(orders, eq(orders.id, maintenanceSubscriptions.orderId))
    .where(eq(maintenanceSubscriptions.providerSubscriptionId, providerSubscriptionId))
    .limit(1);
  return row && row.sub.provider === 'test' ? row : undefined;
}

export type TestChargeOutcome = ChangeOutcome | 'not_found' | 'over' | 'cancelled' | 'not_due';

/**
 * One monthly charge of a test subscription at `at` (the first one when the customer pays on the
 * test page; later ones when a test triggers them). It pays the month after the paid period (or
 * from `at` when nothing is paid or the paid period has lapsed). A plan set to end at its
 * period's end is not charged: once the period is over it becomes cancelled, as Razorpay does.
 */
/**
 * The customer authorises a plan that starts later (Razorpay's authorisation transaction with a
 * future start_at): the subscription is authenticated, nothing is charged.
 */
export async function authoriseTestSubscription(deps: AppDeps, providerSubscriptionId: string, at: Date = new Date()): Promise<void> {
  await deps.events.transaction(async (tx) => {
    await applySubscriptionChange(deps, tx, { providerSubscriptionId, state: 'authenticated', at });
  });
}

export async function chargeTestSubscription(
  deps: AppDeps,
  providerSubscriptionId: string,
  at: Date = new Date(),
  paymentId?: string,
): Promise<TestChargeOutcome> {
  const provider = testProviderOf(deps);
  const found = await findTestSubscription(deps, providerSubscriptionId);
  if (!provider || !found) return 'not_found';
  return deps.events.transaction(async (tx) => {
    // Read under the row lock: two charges triggered at once pay two successive months.
    const [sub] = await tx.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.id, found.sub.id)).for('update');
    if (!sub || sub.state === 'cancelled' || sub.state === 'completed') return 'over';
    if (sub.cancelAtPeriodEnd) {
      if (sub.paidUntil && sub.paidUntil > at) return 'over';
      await applySubscriptionChange(deps, tx, { providerSubscriptionId, state: 'cancelled', at });
      return 'cancelled';
    }
    // A plan that starts when the included support ends is not charged before that (decision 233).
    if (!sub.paidUntil && sub.startsAt && at < sub.startsAt) return 'not_due';
    const periodStart = sub.paidUntil && sub.paidUntil > at ? sub.paidUntil : !sub.paidUntil && sub.startsAt ? sub.startsAt : at;
    return applySubscriptionChange(deps, tx, {
      providerSubscriptionId,
      state: 'active',
      at,
      periodStart,
      periodEnd: addMonth(periodStart),
      // A price change scheduled for the cycle's end applies from the period that starts there, as Razorpay's does.
      payment: {
        id: paymentId ?? provider.paySubscription(providerSubscriptionId).razorpay_payment_id,
        amount: amountFor(sub, periodStart),
        currency: sub.currency,
        status: 'captured',
      },
    });
  });
}
