import { and, eq, lt, notInArray } from 'drizzle-orm';
import type { PlanView, SubscribeResponse } from '../../../contract/maintenance.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { maintenanceProviderPlans, maintenanceSubscribeClaims, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { orders } from '../../db/schema/orders.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { ProviderUnavailableError, isTestMode, type PaymentProvider } from '../../integrations/payments/provider.ts';
import { monthlyQuoteOfOrder } from '../../lib/maintenance-price.ts';
import type { MaintenanceQuote } from '../../../domain/maintenance-plan.ts';
import { planViewOf } from './plan-queries.ts';
import { supportWindow } from '../support/support-window.ts';
import { type TermsClient, maintenanceTermsRecord } from '../terms/terms-acceptance.ts';

// The customer's three plan operations (decision 175): subscribe, verify the
// checkout's signature, cancel at the end of the period.

/** Razorpay charges at most this many months; the plan runs until cancelled well before that. */
const TOTAL_COUNT = 120;
export const OVER_STATES = ['cancelled', 'completed'] as const;

const providerDown = () => new AppError('UNAVAILABLE', 'The payment provider is not answering. Please try again in a minute.');

/** The caller's own delivered order; anything else is the same 404. `lock`: row-locked for the rest of the transaction. */
async function ownDeliveredOrder(tx: Tx, userId: string, publicId: string, lock = true) {
  const q = tx
    .select({ id: orders.id, publicId: orders.publicId, currency: orders.currency })
    .from(orders)
    .where(and(eq(orders.publicId, publicId), eq(orders.userId, userId), eq(orders.state, 'delivered')));
  const [order] = await (lock ? q.for('update') : q);
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
 * stays unused there, harmless). Runs outside any transaction: the provider call holds no lock.
 */
export async function providerPlanId(
  db: Db,
  provider: PaymentProvider,
  price: { amount: number; currency: string },
  name: string,
): Promise<string> {
  const where = and(
    eq(maintenanceProviderPlans.provider, provider.name),
    eq(maintenanceProviderPlans.currency, price.currency),
    eq(maintenanceProviderPlans.amount, price.amount),
  );
  const [known] = await db.select({ id: maintenanceProviderPlans.providerPlanId }).from(maintenanceProviderPlans).where(where);
  if (known) return known.id;
  const plan = await provider.subscriptions.createPlan({ ...price, name });
  await db
    .insert(maintenanceProviderPlans)
    .values({ provider: provider.name, ...price, providerPlanId: plan.id })
    .onConflictDoNothing();
  const [stored] = await db.select({ id: maintenanceProviderPlans.providerPlanId }).from(maintenanceProviderPlans).where(where);
  return stored!.id;
}

/** How long a claim may wait for the provider before the reconcile job takes it for dead: its timeout and a margin. */
export const claimStaleMs = (deps: AppDeps) => deps.config.RAZORPAY_TIMEOUT_MS * 2 + 30_000;

/**
 * A second request while the first one's provider call runs (a double click, a retry): it waits
 * for that answer, polling, instead of calling the provider again; `done` returns the answer once
 * the first request recorded it (or null while it runs). Gives up with a 409 after the provider's timeout.
 */
export async function awaitOther<T>(
  deps: AppDeps,
  done: () => Promise<T | null>,
  busy = 'Your maintenance plan is being set up; please try again in a minute.',
): Promise<T> {
  const until = Date.now() + deps.config.RAZORPAY_TIMEOUT_MS + 2000;
  for (;;) {
    const answer = await done();
    if (answer !== null) return answer;
    if (Date.now() > until) throw conflict(busy);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const rethrowProviderDown =
  (deps: AppDeps, context: Record<string, unknown>) =>
  (err: unknown): never => {
    if (err instanceof ProviderUnavailableError) {
      deps.log.warn(context, err.message);
      throw providerDown();
    }
    throw err;
  };

type Claim =
  | { kind: 'answer'; subscriptionId: string; startsAt: Date | null }
  | { kind: 'claimed'; order: { id: string; publicId: string; currency: string }; quote: MaintenanceQuote; startsAt: Date | null }
  | { kind: 'busy' };

/** The provider plan's name: one per amount, so the name says the plan, not the price. */
export const planName = (deps: AppDeps) => `${deps.config.BRAND_NAME} website maintenance (monthly)`.slice(0, 100);

/** The plan's monthly quote for the order's buyer now (docs/decisions/322-maintenance-plan-gst.md). */
async function quoteOf(deps: AppDeps, tx: Tx, orderId: string): Promise<MaintenanceQuote> {
  const q = await monthlyQuoteOfOrder(deps, tx, orderId);
  if (!q) throw notFound('Order not found.');
  return q;
}

/** Starts no sooner than this before the included support ends: Razorpay wants start_at in the future. */
const START_MARGIN_MS = 5 * 60_000;

/**
 * When a plan subscribed now starts (docs/decisions/233-maintenance-starts-after-included-support.md):
 * the end of the included support while it runs, else at once (null). The server decides it: the
 * request carries nothing about it.
 */
async function startOf(deps: AppDeps, tx: Tx, orderId: string, now = new Date()): Promise<Date | null> {
  const { includedUntil } = await supportWindow(tx, deps.queries.supportExtension, deps.config.SUPPORT_DAYS, orderId, now);
  return includedUntil && includedUntil.getTime() - now.getTime() > START_MARGIN_MS ? includedUntil : null;
}

/**
 * Opens (or reopens) the order's subscription for Checkout. A subscription not yet paid is offered
 * again (a second tab, a closed Checkout) while its price still holds; an order with a plan that
 * runs — even one set to end — cannot start a second (409).
 *
 * Razorpay is called outside any row lock (docs/decisions/230-provider-calls-outside-locks.md): a
 * short transaction claims the order (maintenance_subscribe_claims, "subscribing"), the provider
 * is called with the adapter's timeout, and a second transaction records the subscription and
 * drops the claim. A request that finds a claim waits for its answer; a claim left by a crash is
 * dropped by the reconcile job.
 *
 * The customer accepts the maintenance terms (`acceptTerms: true`, else 400), recorded on the
 * subscription like the checkout's terms on the order (docs/decisions/266-maintenance-terms-acceptance.md).
 */
export async function subscribe(
  deps: AppDeps,
  userId: string,
  orderPublicId: string,
  input: { acceptTerms?: boolean; client?: TermsClient } = {},
): Promise<SubscribeResponse> {
  if (input.acceptTerms !== true) throw badRequest('Please agree to the maintenance plan terms before subscribing (acceptTerms: true).');
  const { provider } = moneyContext(deps);
  const terms = () => maintenanceTermsRecord(orderPublicId, new Date(), input.client);
  const answer = (subscriptionId: string, startsAt: Date | null): SubscribeResponse => ({
    provider: provider.name,
    subscriptionId,
    startsAt: startsAt?.toISOString() ?? null,
    ...(provider.name === 'razorpay' ? { keyId: provider.keyId, checkoutUrl: deps.config.RAZORPAY_CHECKOUT_URL } : {}),
  });

  const claim = (): Promise<Claim> =>
    deps.db.transaction(async (tx) => {
      const order = await ownDeliveredOrder(tx, userId, orderPublicId);
      // The month's total with its GST for this buyer: what the provider's plan charges.
      const quote = await quoteOf(deps, tx, order.id);
      const live = await liveSubscription(tx, order.id);
      if (live && live.state !== 'created') throw conflict('This order already has a maintenance plan.');
      const startsAt = await startOf(deps, tx, order.id);
      // Reopened only while its price and its start still hold.
      if (
        live &&
        live.provider === provider.name &&
        live.amount === quote.total &&
        live.currency === quote.currency &&
        live.startsAt?.getTime() === startsAt?.getTime()
      ) {
        // Accepted again on the reopened Checkout: the latest acceptance is the one kept.
        await tx.update(maintenanceSubscriptions).set(terms()).where(eq(maintenanceSubscriptions.id, live.id));
        return { kind: 'answer', subscriptionId: live.providerSubscriptionId, startsAt };
      }
      // A claim older than any provider answer was left by a crash: this request takes it over.
      await tx
        .delete(maintenanceSubscribeClaims)
        .where(
          and(
            eq(maintenanceSubscribeClaims.orderId, order.id),
            lt(maintenanceSubscribeClaims.claimedAt, new Date(Date.now() - claimStaleMs(deps))),
          ),
        );
      const [claimed] = await tx.insert(maintenanceSubscribeClaims).values({ orderId: order.id }).onConflictDoNothing().returning();
      if (!claimed) return { kind: 'busy' };
      // Never paid, and opened with another provider or price: it is dropped for a fresh one.
      if (live)
        await tx
          .update(maintenanceSubscriptions)
          .set({ state: 'cancelled', updatedAt: new Date() })
          .where(eq(maintenanceSubscriptions.id, live.id));
      return { kind: 'claimed', order, quote, startsAt };
    });

  const first = await claim();
  if (first.kind === 'answer') return answer(first.subscriptionId, first.startsAt);
  if (first.kind === 'busy') {
    return awaitOther(deps, async () => {
      const again = await claim();
      if (again.kind === 'answer') return answer(again.subscriptionId, again.startsAt);
      if (again.kind === 'claimed') return openAtProvider(again.order, again.quote, again.startsAt);
      return null;
    });
  }
  return openAtProvider(first.order, first.quote, first.startsAt);

  async function openAtProvider(
    order: { id: string; publicId: string; currency: string },
    quote: MaintenanceQuote,
    startsAt: Date | null,
  ): Promise<SubscribeResponse> {
    const release = () => deps.db.delete(maintenanceSubscribeClaims).where(eq(maintenanceSubscribeClaims.orderId, order.id));
    let sub: { id: string };
    let planId: string;
    try {
      planId = await providerPlanId(deps.db, provider, { amount: quote.total, currency: quote.currency }, planName(deps));
      sub = await provider.subscriptions.createSubscription({
        planId,
        totalCount: TOTAL_COUNT,
        notes: { order_id: order.publicId },
        ...(startsAt ? { startAt: startsAt } : {}),
      });
    } catch (err) {
      await release();
      return rethrowProviderDown(deps, { order: order.publicId })(err);
    }
    return deps.db.transaction(async (tx) => {
      const [held] = await tx.delete(maintenanceSubscribeClaims).where(eq(maintenanceSubscribeClaims.orderId, order.id)).returning();
      // The claim was taken for dead meanwhile (reconcile job): what Razorpay opened stays unpaid there.
      if (!held) throw conflict('Your maintenance plan took too long to set up; please try again.');
      await tx.insert(maintenanceSubscriptions).values({
        orderId: order.id,
        provider: provider.name,
        testMode: isTestMode(provider),
        providerSubscriptionId: sub.id,
        providerPlanId: planId,
        currency: quote.currency,
        amount: quote.total,
        price: quote.price,
        startsAt,
        ...terms(),
      });
      return answer(sub.id, startsAt);
    });
  }
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
      .where(
        and(
          eq(maintenanceSubscriptions.orderId, order.id),
          eq(maintenanceSubscriptions.providerSubscriptionId, input.razorpay_subscription_id),
        ),
      )
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
 * (the second does not call the provider); no running plan is 404. Like subscribe, the provider is
 * called outside any lock: a short transaction marks the request (cancel_requested_at), the
 * provider answers, a second one records cancel_at_period_end. A request that finds another one's
 * mark waits for its answer; a mark left by a crash is retried by the reconcile job.
 */
export async function cancelAtPeriodEnd(deps: AppDeps, userId: string, orderPublicId: string): Promise<PlanView> {
  const { provider } = moneyContext(deps);
  type Step = { kind: 'done'; view: PlanView } | { kind: 'call'; id: string; providerSubscriptionId: string } | { kind: 'busy' };
  const claim = (): Promise<Step> =>
    deps.db.transaction(async (tx) => {
      const order = await ownDeliveredOrder(tx, userId, orderPublicId, false);
      const sub = await liveSubscription(tx, order.id);
      if (!sub || sub.state === 'created') throw notFound('This order has no maintenance plan to cancel.');
      if (sub.cancelAtPeriodEnd) return { kind: 'done', view: planViewOf(sub) };
      if (sub.provider !== provider.name)
        throw conflict('This plan was started with another payment provider; please write to us to cancel it.');
      if (sub.cancelRequestedAt && Date.now() - sub.cancelRequestedAt.getTime() < claimStaleMs(deps)) return { kind: 'busy' };
      await tx.update(maintenanceSubscriptions).set({ cancelRequestedAt: new Date() }).where(eq(maintenanceSubscriptions.id, sub.id));
      return { kind: 'call', id: sub.id, providerSubscriptionId: sub.providerSubscriptionId };
    });
  const call = async (step: { id: string; providerSubscriptionId: string }): Promise<PlanView> => {
    try {
      await provider.subscriptions.cancelAtCycleEnd(step.providerSubscriptionId);
    } catch (err) {
      await deps.db.update(maintenanceSubscriptions).set({ cancelRequestedAt: null }).where(eq(maintenanceSubscriptions.id, step.id));
      return rethrowProviderDown(deps, { subscription: step.providerSubscriptionId })(err);
    }
    return planViewOf(await recordCancelled(deps.db, step.id));
  };
  const first = await claim();
  if (first.kind === 'done') return first.view;
  if (first.kind === 'call') return call(first);
  return awaitOther(deps, async () => {
    const again = await claim();
    if (again.kind === 'done') return again.view;
    if (again.kind === 'call') return call(again);
    return null;
  });
}

/**
 * Takes back "cancel at period end" while the paid period runs (docs/decisions/218-plan-cancel-undo.md):
 * the plan goes on renewing. Twice is the same answer; no plan set to end is 404; a provider that
 * cannot take a cancellation back (Razorpay) is 409 with what to do instead.
 */
export async function keepPlan(deps: AppDeps, userId: string, orderPublicId: string): Promise<PlanView> {
  const { provider } = moneyContext(deps);
  return deps.db.transaction(async (tx) => {
    const order = await ownDeliveredOrder(tx, userId, orderPublicId);
    const sub = await liveSubscription(tx, order.id);
    if (!sub || sub.state === 'created') throw notFound('This order has no maintenance plan.');
    if (!sub.cancelAtPeriodEnd) return planViewOf(sub);
    if (sub.paidUntil && sub.paidUntil.getTime() <= Date.now())
      throw conflict('The paid period is over, so the plan has ended. Please subscribe again.');
    if (sub.provider !== provider.name || !provider.subscriptions.keepAfterCancel) {
      throw conflict(
        'A cancelled plan cannot be restarted with our payment provider. You are covered until the end of the paid period; subscribe again after it ends.',
      );
    }
    try {
      await provider.subscriptions.keepAfterCancel(sub.providerSubscriptionId);
    } catch (err) {
      if (err instanceof ProviderUnavailableError) throw providerDown();
      throw err;
    }
    const [updated] = await tx
      .update(maintenanceSubscriptions)
      .set({ cancelAtPeriodEnd: false, updatedAt: new Date() })
      .where(eq(maintenanceSubscriptions.id, sub.id))
      .returning();
    return planViewOf(updated!);
  });
}

/** The provider said yes to a cancel at the cycle end: the plan is marked (also from the reconcile job). */
export async function recordCancelled(db: Db, id: string) {
  const [updated] = await db
    .update(maintenanceSubscriptions)
    .set({ cancelAtPeriodEnd: true, cancelRequestedAt: null, updatedAt: new Date() })
    .where(eq(maintenanceSubscriptions.id, id))
    .returning();
  return updated!;
}
