import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import type { BuiltApp } from '../../app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { maintenanceCharges, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { paymentEvents } from '../../db/schema/orders.ts';
import { movesState } from './apply-subscription-event.ts';
import { maintenanceSupportExtension } from './plan-queries.ts';
import { insertOrder } from '../../../../tests/fixtures/maintenance-orders.ts';
import { reconcilePayments } from '../payments/reconcile-payments.ts';

// The maintenance plan against the Razorpay fake (decision 175): plans and
// subscriptions through the real API shape, Checkout's signature, and signed webhooks arriving
// replayed, late, out of order, or about another order's subscription.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApp;
let rzp: FakeRazorpay;

beforeAll(async () => {
  rzp = await startFakeRazorpay();
  t = await buildTestApp({ ...rzp.env() });
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});

/** Every subscribe accepts the maintenance terms (docs/decisions/266-maintenance-terms-acceptance.md). */
const TERMS = { acceptTerms: true };
const post = (url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload }) });
const deliver = (d: { body: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: d.headers, payload: d.body });
const subOf = async (providerSubscriptionId: string) =>
  (
    await t.deps.db
      .select()
      .from(maintenanceSubscriptions)
      .where(eq(maintenanceSubscriptions.providerSubscriptionId, providerSubscriptionId))
  )[0]!;
const invoicesOfSub = async (subId: string) =>
  t.deps.db
    .select({ id: invoices.id, series: invoices.series, amount: invoices.amount })
    .from(invoices)
    .innerJoin(maintenanceCharges, eq(maintenanceCharges.id, invoices.maintenanceChargeId))
    .where(eq(maintenanceCharges.subscriptionId, subId));

describe('the out-of-order rule', () => {
  it('a later event moves the state; an older one never does; within one second only forward; an ended plan stays ended', () => {
    const at = new Date('2026-11-01T10:00:00Z');
    const earlier = new Date(at.getTime() - 1000);
    expect(movesState({ state: 'active', stateAt: at }, 'pending', new Date(at.getTime() + 1000))).toBe(true);
    expect(movesState({ state: 'active', stateAt: at }, 'authenticated', earlier)).toBe(false);
    expect(movesState({ state: 'active', stateAt: at }, 'halted', at)).toBe(true);
    expect(movesState({ state: 'halted', stateAt: at }, 'active', at)).toBe(false);
    expect(movesState({ state: 'authenticated', stateAt: null }, 'active', earlier)).toBe(true);
    expect(movesState({ state: 'cancelled', stateAt: at }, 'active', new Date(at.getTime() + 60_000))).toBe(false);
  });
});

describe('maintenance plan with Razorpay Subscriptions', () => {
  it('subscribes only on the caller’s own delivered order, creating the plan once', async () => {
    const owner = await loginAs(t, 'plan.owner@example.com');
    const other = await loginAs(t, 'plan.other@example.com');
    const delivered = await insertOrder(t.deps.db, owner.user.id);
    const undelivered = await insertOrder(t.deps.db, owner.user.id, 'in_progress');
    expect((await post(`/api/v1/orders/${delivered.publicId}/maintenance/subscribe`, other.headers, TERMS)).statusCode).toBe(404);
    expect((await post(`/api/v1/orders/${undelivered.publicId}/maintenance/subscribe`, owner.headers, TERMS)).statusCode).toBe(404);
    expect((await post(`/api/v1/orders/${delivered.publicId}/maintenance/subscribe`, {}, TERMS)).statusCode).toBe(401);
    expect(rzp.subscriptions.size).toBe(0);

    const first = await post(`/api/v1/orders/${delivered.publicId}/maintenance/subscribe`, owner.headers, TERMS);
    expect(first.statusCode, first.body).toBe(200);
    // Subscribed during the included support: it starts when that ends (decision 233).
    expect(first.json()).toEqual({
      provider: 'razorpay',
      subscriptionId: expect.stringMatching(/^sub_/),
      keyId: rzp.keyId,
      checkoutUrl: t.deps.config.RAZORPAY_CHECKOUT_URL,
      startsAt: expect.any(String),
    });
    const sub = rzp.subscriptions.get(first.json().subscriptionId)!;
    expect(sub.notes).toEqual({ order_id: delivered.publicId });
    const plan = rzp.plans.get(sub.plan_id)!;
    // 49 in the base currency (USD, factor 1), in cents; monthly, every month.
    expect(plan).toMatchObject({ period: 'monthly', interval: 1, item: { amount: 4900, currency: 'USD' } });
    // Checkout closed and reopened: the same subscription; another order: the same plan.
    const again = await post(`/api/v1/orders/${delivered.publicId}/maintenance/subscribe`, owner.headers, TERMS);
    expect(again.json().subscriptionId).toBe(first.json().subscriptionId);
    const second = await insertOrder(t.deps.db, other.user.id);
    const otherSub = await post(`/api/v1/orders/${second.publicId}/maintenance/subscribe`, other.headers, TERMS);
    expect(otherSub.statusCode).toBe(200);
    expect(rzp.plans.size).toBe(1);
    expect(rzp.subscriptions.get(otherSub.json().subscriptionId)!.plan_id).toBe(plan.id);
  });

  it('verifies Checkout’s signature over payment_id|subscription_id; a forged or foreign one is refused', async () => {
    const owner = await loginAs(t, 'plan.verify@example.com');
    const stranger = await loginAs(t, 'plan.stranger@example.com');
    const order = await insertOrder(t.deps.db, owner.user.id);
    const strangerOrder = await insertOrder(t.deps.db, stranger.user.id);
    const subId = (await post(`/api/v1/orders/${order.publicId}/maintenance/subscribe`, owner.headers, TERMS)).json()
      .subscriptionId as string;
    const strangerSub = (await post(`/api/v1/orders/${strangerOrder.publicId}/maintenance/subscribe`, stranger.headers, TERMS)).json()
      .subscriptionId as string;
    const { checkout } = rzp.chargeSubscription(subId);
    const url = `/api/v1/orders/${order.publicId}/maintenance/verify`;

    const forged = await post(url, owner.headers, { ...checkout, razorpay_signature: 'a'.repeat(64) });
    expect(forged.statusCode).toBe(400);
    // Signed with the right key over the one-off checkout's order (subscription_id|payment_id): refused.
    const swapped = createHmac('sha256', rzp.keySecret).update(`${subId}|${checkout.razorpay_payment_id}`).digest('hex');
    const wrongMessage = await post(url, owner.headers, { ...checkout, razorpay_signature: swapped });
    expect(wrongMessage.statusCode).toBe(400);
    // A stranger's real subscription id on this order: not this order's subscription.
    expect((await post(url, owner.headers, { ...checkout, razorpay_subscription_id: strangerSub })).statusCode).toBe(404);
    // The owner's valid fields on the stranger's account: not their order.
    expect((await post(url, stranger.headers, checkout)).statusCode).toBe(404);
    expect((await post(url, owner.headers, { ...checkout, razorpay_payment_id: 'pay_\u0000x' })).statusCode).toBe(400);
    expect((await post(url, owner.headers, { ...checkout, razorpay_subscription_id: 's'.repeat(10_000) })).statusCode).toBe(400);
    expect((await subOf(subId)).state).toBe('created');

    const ok = await post(url, owner.headers, checkout);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().plan).toEqual({
      state: 'authenticated',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      startsAt: expect.any(String),
    });
  });

  it('credits a charge arriving before activation, once, with an invoice; replays and late events change nothing', async () => {
    const owner = await loginAs(t, 'plan.charges@example.com');
    const order = await insertOrder(t.deps.db, owner.user.id);
    const subId = (await post(`/api/v1/orders/${order.publicId}/maintenance/subscribe`, owner.headers, TERMS)).json()
      .subscriptionId as string;
    const { payment } = rzp.chargeSubscription(subId);
    const now = Math.floor(Date.now() / 1000);
    const periodEnd = new Date(rzp.subscriptions.get(subId)!.current_end! * 1000);

    // charged first (activated is delayed): the plan is active at once.
    const charged = rzp.subscriptionWebhook('subscription.charged', subId, { payment, createdAt: now, eventId: 'evt_sub_charged_1' });
    expect((await deliver(charged)).json()).toEqual({ status: 'processed' });
    let sub = await subOf(subId);
    expect(sub).toMatchObject({ state: 'active', paidUntil: periodEnd });
    const invs = await invoicesOfSub(sub.id);
    // rzp_test_ keys move no money: the TEST series (decision 120).
    expect(invs).toEqual([{ id: expect.any(String), series: 'test_invoice', amount: 4900 }]);

    // The same delivery again, and the same payment under another event id: no second charge.
    expect((await deliver(charged)).json()).toEqual({ status: 'duplicate' });
    expect(
      (
        await deliver(rzp.subscriptionWebhook('subscription.charged', subId, { payment, createdAt: now, eventId: 'evt_sub_charged_again' }))
      ).json(),
    ).toEqual({ status: 'ignored' });
    // activated arrives late (older), and an older pending: the plan stays active.
    expect((await deliver(rzp.subscriptionWebhook('subscription.activated', subId, { createdAt: now - 5 }))).json()).toEqual({
      status: 'ignored',
    });
    expect((await deliver(rzp.subscriptionWebhook('subscription.pending', subId, { createdAt: now - 2 }))).json()).toEqual({
      status: 'ignored',
    });
    sub = await subOf(subId);
    expect(sub.state).toBe('active');
    expect(await invoicesOfSub(sub.id)).toHaveLength(1);
    const [logged] = await t.deps.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_sub_charged_again'));
    expect(logged).toMatchObject({ eventType: 'subscription.charged', providerOrderId: subId, outcome: 'duplicate_charge' });

    // A later failure halts; a later charge (retry succeeded) pays the next month and reactivates.
    expect((await deliver(rzp.subscriptionWebhook('subscription.halted', subId, { createdAt: now + 10 }))).json()).toEqual({
      status: 'processed',
    });
    expect((await subOf(subId)).state).toBe('halted');
    const next = rzp.chargeSubscription(subId);
    expect(
      (await deliver(rzp.subscriptionWebhook('subscription.charged', subId, { payment: next.payment, createdAt: now + 20 }))).json(),
    ).toEqual({ status: 'processed' });
    sub = await subOf(subId);
    expect(sub.state).toBe('active');
    expect(sub.paidUntil!.getTime()).toBe(rzp.subscriptions.get(subId)!.current_end! * 1000);
    expect(sub.paidUntil!.getTime()).toBeGreaterThan(periodEnd.getTime());
    expect(await invoicesOfSub(sub.id)).toHaveLength(2);

    // The support window's extension: covered to the end of the paid period.
    expect(await maintenanceSupportExtension(t.deps.db, order.id)).toEqual({
      plan: { state: 'active', currentPeriodEnd: sub.paidUntil, cancelAtPeriodEnd: false, startsAt: null },
      coveredUntil: sub.paidUntil,
    });
  });

  it('does not credit a charge event that names another order, a forged body, or another amount', async () => {
    const a = await loginAs(t, 'plan.a@example.com');
    const b = await loginAs(t, 'plan.b@example.com');
    const orderA = await insertOrder(t.deps.db, a.user.id);
    const orderB = await insertOrder(t.deps.db, b.user.id);
    const subA = (await post(`/api/v1/orders/${orderA.publicId}/maintenance/subscribe`, a.headers, TERMS)).json().subscriptionId as string;
    const subB = (await post(`/api/v1/orders/${orderB.publicId}/maintenance/subscribe`, b.headers, TERMS)).json().subscriptionId as string;
    const { payment } = rzp.chargeSubscription(subA);

    // Order A's subscription said to be order B's: nothing moves for either.
    const foreign = rzp.subscriptionWebhook('subscription.charged', subA, { payment, entity: { notes: { order_id: orderB.publicId } } });
    expect((await deliver(foreign)).json()).toEqual({ status: 'ignored' });
    // Order B's subscription with A's payment of another amount: not the plan's price.
    expect(
      (
        await deliver(rzp.subscriptionWebhook('subscription.charged', subB, { payment: { ...payment, id: 'pay_other', amount: 100 } }))
      ).json(),
    ).toEqual({ status: 'ignored' });
    // A subscription we never opened.
    expect(
      (
        await deliver(rzp.subscriptionWebhook('subscription.charged', 'sub_unknown', { payment: { ...payment, id: 'pay_unknown' } }))
      ).json(),
    ).toEqual({ status: 'ignored' });
    // A body signed with another secret.
    const genuine = rzp.subscriptionWebhook('subscription.charged', subA, { payment });
    expect(
      (await deliver({ body: genuine.body, headers: { ...genuine.headers, 'x-razorpay-signature': 'f'.repeat(64) } })).statusCode,
    ).toBe(401);
    for (const id of [subA, subB]) {
      const sub = await subOf(id);
      expect(sub.paidUntil).toBeNull();
      expect(await t.deps.db.select().from(maintenanceCharges).where(eq(maintenanceCharges.subscriptionId, sub.id))).toEqual([]);
    }
    // The genuine one still credits A.
    expect((await deliver(genuine)).json()).toEqual({ status: 'processed' });
    expect((await subOf(subA)).state).toBe('active');
  });

  it('cancels at the period end once; twice is the same answer; the founder sees the plan', async () => {
    const owner = await loginAs(t, 'plan.cancel@example.com');
    const admin = await loginAs(t, 'plan.founder@example.com', 'admin');
    const order = await insertOrder(t.deps.db, owner.user.id);
    const url = `/api/v1/orders/${order.publicId}/maintenance/cancel`;
    expect((await post(url, owner.headers)).statusCode).toBe(404);
    const subId = (await post(`/api/v1/orders/${order.publicId}/maintenance/subscribe`, owner.headers, TERMS)).json()
      .subscriptionId as string;
    expect((await post(url, owner.headers)).statusCode).toBe(404);
    const { payment } = rzp.chargeSubscription(subId);
    await deliver(rzp.subscriptionWebhook('subscription.charged', subId, { payment }));
    const paidUntil = new Date(rzp.subscriptions.get(subId)!.current_end! * 1000).toISOString();

    const before = await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: admin.headers });
    expect(before.statusCode, before.body).toBe(200);
    const [first, second] = [await post(url, owner.headers), await post(url, owner.headers)];
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ plan: { state: 'active', currentPeriodEnd: paidUntil, cancelAtPeriodEnd: true, startsAt: null } });
    expect(second.json()).toEqual(first.json());
    expect(rzp.cancellations.filter((c) => c.subscriptionId === subId)).toEqual([{ subscriptionId: subId, cancelAtCycleEnd: true }]);
    // Razorpay cannot take a cancellation back (docs/decisions/218-plan-cancel-undo.md): a clear 409, the plan still set to end.
    const keep = await post(`/api/v1/orders/${order.publicId}/maintenance/resume`, owner.headers);
    expect(keep.statusCode, keep.body).toBe(409);
    expect(keep.json().message).toMatch(/cannot be restarted/);
    expect((await subOf(subId)).cancelAtPeriodEnd).toBe(true);
    // Cancelling no longer recurs: one active plan and 49.00 USD less monthly revenue.
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: admin.headers });
    const usd = (r: typeof after) =>
      (r.json().maintenance.mrr as { currency: string; amountMinor: number }[]).find((m) => m.currency === 'USD')?.amountMinor ?? 0;
    expect(after.json().maintenance.activePlans).toBe(before.json().maintenance.activePlans - 1);
    expect(usd(before) - usd(after)).toBe(4900);

    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${order.publicId}`, headers: admin.headers });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().maintenance).toMatchObject({
      state: 'active',
      provider: 'razorpay',
      subscriptionId: subId,
      amount: 4900,
      currency: 'USD',
      currentPeriodEnd: paidUntil,
      cancelAtPeriodEnd: true,
      nextChargeAt: null,
      charges: [
        {
          paymentId: payment.id,
          amount: 4900,
          periodEnd: paidUntil,
          invoice: { number: expect.stringMatching(/^TEST\//), series: 'test_invoice' },
        },
      ],
    });

    // The period ends: Razorpay says cancelled; the paid period still covers support.
    expect(
      (
        await deliver(
          rzp.subscriptionWebhook('subscription.cancelled', subId, {
            createdAt: Math.floor(Date.now() / 1000) + 5,
            entity: { status: 'cancelled' },
          }),
        )
      ).json(),
    ).toEqual({
      status: 'processed',
    });
    expect((await subOf(subId)).state).toBe('cancelled');
    expect((await post(url, owner.headers)).statusCode).toBe(404);
    expect((await maintenanceSupportExtension(t.deps.db, order.id))?.coveredUntil?.toISOString()).toBe(paidUntil);
    // A new plan can start once the last one is over.
    expect((await post(`/api/v1/orders/${order.publicId}/maintenance/subscribe`, owner.headers, TERMS)).statusCode).toBe(200);
  });
});

describe.skipIf(process.env.TEST_DB !== 'postgres')('two instances on one PostgreSQL receive the same charge', () => {
  const keys = { keyId: 'rzp_test_twoinstances', keySecret: 'two-instances-key-secret', webhookSecret: 'two-instances-webhook-secret' };
  // instancesOnPostgres reads its environment when its own beforeAll runs (after this one), so the
  // fake's address, known only once it listens, is filled in here.
  const env: Record<string, string> = {
    RAZORPAY_KEY_ID: keys.keyId,
    RAZORPAY_KEY_SECRET: keys.keySecret,
    RAZORPAY_WEBHOOK_SECRET: keys.webhookSecret,
  };
  let fake: FakeRazorpay;
  beforeAll(async () => {
    fake = await startFakeRazorpay(keys);
    env.RAZORPAY_API_URL = fake.url;
  });
  afterAll(async () => {
    await fake?.close();
  });
  const apps = instancesOnPostgres(2, env);

  it('records one charge and issues one invoice, whichever instance and event id comes first', async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const owner = await loginAs(a, 'plan.twice@example.com');
    const order = await insertOrder(a.deps.db, owner.user.id);
    const subscribed = await b.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${order.publicId}/maintenance/subscribe`,
      headers: owner.headers,
      payload: TERMS,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const subId = subscribed.json().subscriptionId as string;
    const { payment } = fake.chargeSubscription(subId);
    const first = fake.subscriptionWebhook('subscription.charged', subId, { payment, eventId: 'evt_two_1' });
    const retry = fake.subscriptionWebhook('subscription.charged', subId, { payment, eventId: 'evt_two_2' });
    const answers = await Promise.all(
      [a, b, a, b].map((app, i) =>
        app.app.inject({
          method: 'POST',
          url: '/api/v1/payment/webhook',
          headers: (i < 2 ? first : retry).headers,
          payload: (i < 2 ? first : retry).body,
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const said = answers.map((r) => r.json().status as string).sort();
    expect(said).toEqual(['duplicate', 'duplicate', 'ignored', 'processed']);
    const [sub] = await a.deps.db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.providerSubscriptionId, subId));
    expect(sub!.state).toBe('active');
    expect(await a.deps.db.select().from(maintenanceCharges).where(eq(maintenanceCharges.subscriptionId, sub!.id))).toHaveLength(1);
    const issued = await a.deps.db
      .select({ id: invoices.id })
      .from(invoices)
      .innerJoin(maintenanceCharges, eq(maintenanceCharges.id, invoices.maintenanceChargeId))
      .where(eq(maintenanceCharges.subscriptionId, sub!.id));
    expect(issued).toHaveLength(1);
  });
});

describe('Razorpay is called outside any row lock (decision 230)', () => {
  let s: TestApp;
  let slow: FakeRazorpay;
  beforeAll(async () => {
    slow = await startFakeRazorpay();
    // The adapter waits longer than the fake's 10 s answer, so the subscribe does succeed.
    s = await buildTestApp({ ...slow.env(), RAZORPAY_TIMEOUT_MS: '12000' });
  });
  afterAll(async () => {
    await s?.close();
    await slow?.close();
  });
  const call = (method: 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
    s.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const timed = async <T>(work: Promise<T>) => {
    const started = Date.now();
    const result = await work;
    return { result, ms: Date.now() - started };
  };

  it(
    'a 10 s answer to subscribe blocks neither the order’s messages nor the founder’s changes; a double click gets the same subscription from one call',
    { retry: 1 },
    async () => {
      const owner = await loginAs(s, 'plan.slow@example.com');
      const admin = await loginAs(s, 'plan.slow.boss@example.com', 'admin');
      // The monthly plan of this price exists already (made by an earlier subscribe, at full speed).
      const warm = await insertOrder(s.deps.db, owner.user.id);
      expect((await call('POST', `/api/v1/orders/${warm.publicId}/maintenance/subscribe`, owner.headers, TERMS)).statusCode).toBe(200);

      const order = await insertOrder(s.deps.db, owner.user.id);
      slow.mode = 'slow';
      slow.slowMs = 10_000;
      const before = slow.subscriptions.size;
      const subscribing = timed(call('POST', `/api/v1/orders/${order.publicId}/maintenance/subscribe`, owner.headers, TERMS));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const doubleClick = call('POST', `/api/v1/orders/${order.publicId}/maintenance/subscribe`, owner.headers, TERMS);

      const message = await timed(call('POST', `/api/v1/orders/${order.publicId}/messages`, owner.headers, { text: 'Is the plan on?' }));
      expect(message.result.statusCode, message.result.body).toBe(201);
      expect(message.ms).toBeLessThan(3000);
      const link = await timed(
        call('PUT', `/api/v1/admin/orders/${order.publicId}/delivery-link`, admin.headers, { url: 'https://site.example.com' }),
      );
      expect(link.result.statusCode, link.result.body).toBe(200);
      expect(link.ms).toBeLessThan(3000);

      const done = await subscribing;
      slow.mode = 'ok';
      expect(done.result.statusCode, done.result.body).toBe(200);
      expect(done.ms).toBeGreaterThanOrEqual(9000);
      const again = await doubleClick;
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().subscriptionId).toBe(done.result.json().subscriptionId);
      expect(slow.subscriptions.size).toBe(before + 1);
      const claims = await s.deps.database.query<{ n: number }>('select count(*)::int as n from maintenance_subscribe_claims');
      expect(claims[0]!.n).toBe(0);
    },
  );

  it('a crash between the claim and the answer is reconciled: a dead subscribe claim is dropped, a lost cancel answer is asked again', async () => {
    const owner = await loginAs(s, 'plan.crash@example.com');
    const order = await insertOrder(s.deps.db, owner.user.id);
    const old = new Date(Date.now() - 10 * 60_000);
    // A subscribe that crashed after its claim: the order is "subscribing" with nobody at the provider.
    await s.deps.database.query('insert into maintenance_subscribe_claims (order_id, claimed_at) values ($1, $2)', [order.id, old]);
    await reconcilePayments(s.deps);
    expect(
      (
        await s.deps.database.query<{ n: number }>('select count(*)::int as n from maintenance_subscribe_claims where order_id = $1', [
          order.id,
        ])
      )[0]!.n,
    ).toBe(0);
    const subscribed = await call('POST', `/api/v1/orders/${order.publicId}/maintenance/subscribe`, owner.headers, TERMS);
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const subId = subscribed.json().subscriptionId as string;
    const { payment } = slow.chargeSubscription(subId);
    const d = slow.subscriptionWebhook('subscription.charged', subId, { payment });
    expect((await s.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: d.headers, payload: d.body })).json()).toEqual({
      status: 'processed',
    });
    // A cancel that crashed after asking Razorpay: the mark is there, the answer never recorded.
    await s.deps.database.query('update maintenance_subscriptions set cancel_requested_at = $1 where provider_subscription_id = $2', [
      old,
      subId,
    ]);
    await reconcilePayments(s.deps);
    expect(slow.cancellations.filter((c) => c.subscriptionId === subId)).toEqual([{ subscriptionId: subId, cancelAtCycleEnd: true }]);
    const [row] = await s.deps.database.query<{ cancel_at_period_end: boolean; cancel_requested_at: Date | null }>(
      'select cancel_at_period_end, cancel_requested_at from maintenance_subscriptions where provider_subscription_id = $1',
      [subId],
    );
    expect(row).toEqual({ cancel_at_period_end: true, cancel_requested_at: null });
  });
});
