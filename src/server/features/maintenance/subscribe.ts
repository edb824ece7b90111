import { and, eq, notInArray } from 'drizzle-orm';
import type { PlanView, SubscribeResponse } from '../../../contract/maintenance.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { maintenanceProviderPlans, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { orders } from '../../db/schema/orders.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { ProviderUnavailableError, isTestMode, type PaymentProvider } from '../../integrations/payments/provider.ts';
import { monthlyPriceIn } from '../../lib/maintenance-price.ts';
import { planViewOf } from './plan-queries.ts';

// The customer's three plan operations (decision 175): subscribe, verify the
// checkout's signature, cancel at the end of the period.

/** Razorpay charges at most this many months; the plan runs until cancelled well before that. */
const TOTAL_COUNT = 120;
const OVER_STATES = ['cancelled', 'completed'] as const;

const providerDown = () => new AppError('UNAVAILABLE', 'The payment provider is not answering. Please try again in a minute.');

/** The caller's own delivered order, row-locked for the rest of the transaction; anything else is the same 404. */
async function ownDeliveredOrder(tx: Tx, userId: string, publicId: string) {
  const [order] = await tx
    .select({ id: orders.id, publicId: orders.publicId, currency: orders.currency })
    .from(orders)
    .where(and(eq(orders.publicId, publicId), eq(orders.userId, userId), eq(orders.state, 'delivered')))
    .for('update');
  if (!order) throw notFound('Order not found.');
  return order;
}

/** The subscription of the order that is not over, locked. */
async function liveSubscription(tx: Tx, orderId: string) {
  const [sub] = await tx
    .select()
    .from(maintenanceSubscriptions)
    .where(and(eq(maintenanceSubscriptions.orderId, orderId), notInArray(maintenanceSubscriptions.state, [...OVER_STATES])))
    .for('update');
  return sub;
}

/**
 * The provider plan of one price, created once and remembered. Two instances creating the first
 * plan of a price at once both create one at Razorpay; the first stored is the one used (the other
 * stays unused there, harmless).
 */
async function providerPlanId(tx: Tx, provider: PaymentProvider, price: { amount: number; currency: string }, name: string): Promise<string> {
  const where = and(eq(maintenanceProviderPlans.provider, provider.name), eq(maintenanceProviderPlans.currency, price.currency), eq(maintenanceProviderPlans.amount, price.amount));
  const [known] = await tx.select({ id: maintenanceProviderPlans.providerPlanId }).from(maintenanceProviderPlans).where(where);
  if (known) return known.id;
  const plan = await provider.subscriptions.createPlan({ ...price, name });
  await tx.insert(maintenanceProviderPlans).values({ provider: provider.name, ...price, providerPlanId: plan.id }).onConflictDoNothing();
  const [stored] = await tx.select({ id: maintenanceProviderPlans.providerPlanId }).from(maintenanceProviderPlans).where(where);
  return stored!.id;
}

/**
 * Opens (or reopens) the order's subscription for Checkout. A subscription not yet paid is offered
 * again (a second tab, a closed Checkout) while its price still holds; an order with a plan that
 * runs — even one set to end — cannot start a second (409).
 */
export async function subscribe(deps: AppDeps, userId: string, orderPublicId: string): Promise<SubscribeResponse> {
  const { provider } = moneyContext(deps);
  const answer = (subscriptionId: string): SubscribeResponse => ({ provider: provider.name, subscriptionId, ...(provider.name === 'razorpay' ? { keyId: provider.keyId, checkoutUrl: deps.config.RAZORPAY_CHECKOUT_URL } : {}) });
  return deps.db.transaction(async (tx) => {
    const order = await ownDeliveredOrder(tx, userId, orderPublicId);
    const price = monthlyPriceIn(deps, order.currency);
    const live = await liveSubscription(tx, order.id);
    if (live && live.state !== 'created') throw conflict('This order already has a maintenance plan.');
    if (live && live.provider === provider.name && live.amount === price.amount && live.currency === price.currency) return answer(live.providerSubscriptionId);
    // Never paid, and opened with another provider or price: it is dropped for a fresh one.
    if (live) await tx.update(maintenanceSubscriptions).set({ state: 'cancelled', updatedAt: new Date() }).where(eq(maintenanceSubscriptions.id, live.id));
    try {
      const planId = await providerPlanId(tx, provider, price, `${deps.config.BRAND_NAME} website maintenance (monthly)`.slice(0, 100));
      const sub = await provider.subscriptions.createSubscription({ planId, totalCount: TOTAL_COUNT, notes: { order_id: order.publicId } });
      await tx.insert(maintenanceSubscriptions).values({
        orderId: order.id,
        provider: provider.name,
        testMode: isTestMode(provider),
        providerSubscriptionId: sub.id,
        providerPlanId: planId,
        currency: price.currency,
        amount: price.amount,
      });
      return answer(sub.id);
    } catch (err) {
      if (err instanceof ProviderUnavailableError) {
        deps.log.warn({ order: order.publicId }, err.message);
        throw providerDown();
      }
      throw err;
    }
  });
}

/**
 * Checkout's callback: the signature over `payment_id|subscription_id` is recomputed with OUR
 * stored subscription id of THIS order and compared in constant time. A valid one marks a new
 * subscription authenticated; activation, charges and periods come from the provider's events
 * (a webhook, or the test checkout), which are the only source of money state.
 */
export async function verifySubscription(
  deps: AppDeps,
  userId: string,
  orderPublicId: string,
  input: { razorpay_payment_id: string; razorpay_subscription_id: string; razorpay_signature: string },
): Promise<PlanView> {
  const { provider } = moneyContext(deps);
  return deps.db.transaction(async (tx) => {
    const order = await ownDeliveredOrder(tx, userId, orderPublicId);
    const [sub] = await tx
      .select()
      .from(maintenanceSubscriptions)
      .where(and(eq(maintenanceSubscriptions.orderId, order.id), eq(maintenanceSubscriptions.providerSubscriptionId, input.razorpay_subscription_id)))
      .for('update');
    if (!sub) throw notFound('Subscription not found.');
    if (sub.provider !== provider.name) throw conflict('This subscription was started with another payment provider.');
    if (!provider.subscriptions.isSignatureValid(sub.providerSubscriptionId, input.razorpay_payment_id, input.razorpay_signature)) {
      deps.log.warn({ subscription: sub.providerSubscriptionId }, 'subscription checkout signature mismatch');
      throw badRequest('Payment verification failed');
    }
    if (sub.state !== 'created') return planViewOf(sub);
    // No state_at: any event of the provider, however early its clock, still moves it on.
    const [updated] = await tx
      .update(maintenanceSubscriptions)
      .set({ state: 'authenticated', updatedAt: new Date() })
      .where(eq(maintenanceSubscriptions.id, sub.id))
      .returning();
    return planViewOf(updated!);
  });
}

/**
 * Cancels at the end of the paid period (Razorpay: cancel_at_cycle_end). Twice is the same answer
 * (the second does not call the provider); no running plan is 404.
 */
export async function cancelAtPeriodEnd(deps: AppDeps, userId: string, orderPublicId: string): Promise<PlanView> {
  const { provider } = moneyContext(deps);
  return deps.db.transaction(async (tx) => {
    const order = await ownDeliveredOrder(tx, userId, orderPublicId);
    const sub = await liveSubscription(tx, order.id);
    if (!sub || sub.state === 'created') throw notFound('This order has no maintenance plan to cancel.');
    if (sub.cancelAtPeriodEnd) return planViewOf(sub);
    if (sub.provider !== provider.name) throw conflict('This plan was started with another payment provider; please write to us to cancel it.');
    try {
      await provider.subscriptions.cancelAtCycleEnd(sub.providerSubscriptionId);
    } catch (err) {
      if (err instanceof ProviderUnavailableError) {
        deps.log.warn({ subscription: sub.providerSubscriptionId }, err.message);
        throw providerDown();
      }
      throw err;
    }
    const [updated] = await tx
      .update(maintenanceSubscriptions)
      .set({ cancelAtPeriodEnd: true, updatedAt: new Date() })
      .where(eq(maintenanceSubscriptions.id, sub.id))
      .returning();
    return planViewOf(updated!);
  });
}
