import { and, eq, sql } from 'drizzle-orm';
import type { PlanState } from '../../../contract/maintenance.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { maintenanceCharges, maintenanceProviderPlans, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';

// How Razorpay's subscription events move a plan (decision 175). Webhooks may come late, twice, or
// out of order; the rules that make that safe live here, shared by the webhook and the built-in
// test checkout (which plays Razorpay's part with the same calls).

/** The state each event says the subscription is in. */
export const EVENT_STATE: Readonly<Record<string, PlanState>> = {
  'subscription.authenticated': 'authenticated',
  'subscription.activated': 'active',
  'subscription.charged': 'active',
  'subscription.resumed': 'active',
  'subscription.pending': 'pending',
  'subscription.halted': 'halted',
  'subscription.cancelled': 'cancelled',
  'subscription.completed': 'completed',
};

// Within one second (Razorpay's created_at resolution) a later state of the life cycle wins:
// "activated" and "charged" often share a second with each other, never with going back.
const RANK: Record<PlanState, number> = { created: 0, authenticated: 1, active: 2, pending: 3, halted: 4, cancelled: 5, completed: 5 };
const TERMINAL = new Set<PlanState>(['cancelled', 'completed']);

/** Whether an event of `at` saying `next` may replace the stored state (pure; unit-tested). */
export function movesState(current: { state: PlanState; stateAt: Date | null }, next: PlanState, at: Date): boolean {
  if (TERMINAL.has(current.state) || current.state === next) return false;
  if (!current.stateAt || at > current.stateAt) return true;
  return at.getTime() === current.stateAt.getTime() && RANK[next] > RANK[current.state];
}

/** `planId` when it is one of our provider plans of `amount` in the subscription's provider and currency, else null. */
async function ourPlanOf(
  tx: Tx,
  sub: typeof maintenanceSubscriptions.$inferSelect,
  planId: string | null | undefined,
  amount: number,
): Promise<string | null> {
  if (!planId) return null;
  const [plan] = await tx
    .select({ id: maintenanceProviderPlans.providerPlanId })
    .from(maintenanceProviderPlans)
    .where(
      and(
        eq(maintenanceProviderPlans.provider, sub.provider),
        eq(maintenanceProviderPlans.currency, sub.currency),
        eq(maintenanceProviderPlans.amount, amount),
        eq(maintenanceProviderPlans.providerPlanId, planId),
      ),
    )
    .limit(1);
  return plan?.id ?? null;
}

const MONTH_FALLBACK = (from: Date) => {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d;
};

export interface SubscriptionChange {
  providerSubscriptionId: string;
  /** The state the event reports (EVENT_STATE). */
  state: PlanState;
  /** The event's own time (created_at): orders events, not their arrival. */
  at: Date;
  /** The subscription entity's current period, when it has one (Razorpay: current_start/current_end). */
  periodStart?: Date | null;
  periodEnd?: Date | null;
  /** The captured payment of a `subscription.charged`. */
  payment?: { id: string; amount: number; currency: string; status: string };
  /** The plan the provider says the subscription is on (Razorpay: the entity's plan_id). */
  planId?: string | null;
  /** The order the provider says this is for (notes.order_id): must be the subscription's own. */
  claimedOrderPublicId?: string | null;
}

export type ChangeOutcome =
  'applied' | 'charged' | 'stale' | 'duplicate_charge' | 'unknown_subscription' | 'order_mismatch' | 'amount_mismatch';

/**
 * Applies one provider change inside the caller's transaction (webhook: the one that claimed the
 * event id). The subscription row is locked first, so two instances applying two events of one
 * subscription queue; a charge is recorded once per payment id (unique), and its invoice is issued
 * by the `maintenance.charged` subscriber in the same transaction. A charge always counts (money
 * moved), even when its state is stale; a stale state never moves the plan back.
 */
export async function applySubscriptionChange(deps: AppDeps, tx: Tx, change: SubscriptionChange): Promise<ChangeOutcome> {
  const [row] = await tx
    .select({ sub: maintenanceSubscriptions, orderPublicId: orders.publicId, customerEmail: users.email })
    .from(maintenanceSubscriptions)
    .innerJoin(orders, eq(orders.id, maintenanceSubscriptions.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(maintenanceSubscriptions.providerSubscriptionId, change.providerSubscriptionId))
    .for('update', { of: maintenanceSubscriptions });
  if (!row) return 'unknown_subscription';
  const { sub } = row;
  // A subscription is credited to the order WE opened it for; an event naming another order is
  // someone's forgery or mistake, and moves nothing.
  if (change.claimedOrderPublicId && change.claimedOrderPublicId !== row.orderPublicId) {
    deps.log.warn({ subscription: sub.providerSubscriptionId }, 'subscription event names another order; ignored');
    return 'order_mismatch';
  }
  let outcome: ChangeOutcome = 'stale';
  const set: Partial<typeof maintenanceSubscriptions.$inferInsert> = {};
  if (change.payment) {
    const p = change.payment;
    // A price change the owner scheduled for the cycle's end (docs/decisions/322-maintenance-plan-gst.md):
    // the first charge at the new amount makes it the plan's own; until then the old amount is still right.
    // A crash after the provider took the change but before we recorded it leaves no pending amount:
    // the provider's own word that the subscription runs on one of our plans of that amount does.
    const newPlanId =
      p.amount === sub.amount
        ? null
        : sub.pendingAmount !== null && p.amount === sub.pendingAmount
          ? sub.pendingPlanId
          : await ourPlanOf(tx, sub, change.planId, p.amount);
    const repriced = newPlanId !== null;
    if (p.status !== 'captured' || (p.amount !== sub.amount && !repriced) || p.currency !== sub.currency) {
      deps.log.warn({ subscription: sub.providerSubscriptionId, payment: p.id }, 'subscription charge does not match the plan; ignored');
      return 'amount_mismatch';
    }
    const periodStart = change.periodStart ?? (sub.paidUntil && sub.paidUntil > change.at ? sub.paidUntil : change.at);
    const periodEnd = change.periodEnd && change.periodEnd > periodStart ? change.periodEnd : MONTH_FALLBACK(periodStart);
    const [charge] = await tx
      .insert(maintenanceCharges)
      .values({
        subscriptionId: sub.id,
        providerPaymentId: p.id,
        amount: p.amount,
        currency: p.currency,
        periodStart,
        periodEnd,
        chargedAt: change.at,
      })
      .onConflictDoNothing()
      .returning({ id: maintenanceCharges.id });
    if (!charge) return 'duplicate_charge';
    outcome = 'charged';
    if (!sub.paidUntil || periodEnd > sub.paidUntil) set.paidUntil = periodEnd;
    if (repriced)
      Object.assign(set, {
        amount: p.amount,
        providerPlanId: newPlanId,
        price: sub.price ?? sub.amount,
        pendingAmount: null,
        pendingPlanId: null,
        pendingFrom: null,
        repriceRequestedAt: null,
      });
    await deps.events.publish(tx, 'maintenance.charged', {
      orderId: sub.orderId,
      orderPublicId: row.orderPublicId,
      customerEmail: row.customerEmail,
      chargeId: charge.id,
      subscriptionId: sub.id,
      paymentId: p.id,
      amount: p.amount,
      currency: p.currency,
      periodStart,
      periodEnd,
      paidAt: change.at,
      testMode: sub.testMode,
      price: sub.price ?? sub.amount,
    });
  }
  if (movesState(sub, change.state, change.at)) {
    set.state = change.state;
    set.stateAt = change.at;
    if (outcome === 'stale') outcome = 'applied';
  }
  if (Object.keys(set).length > 0) {
    await tx
      .update(maintenanceSubscriptions)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(maintenanceSubscriptions.id, sub.id));
  }
  return outcome;
}
