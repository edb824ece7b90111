import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { maintenanceCharges, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { supportWindow } from '../support/support-window.ts';
import { chargeTestSubscription } from './test-charges.ts';
import { insertOrder } from '../../../../tests/fixtures/maintenance-orders.ts';

// The whole plan with no account anywhere: the built-in test checkout opens the
// subscription, its page authorises the first charge, and the monthly charge a test triggers
// extends the paid period (and so support) and issues an invoice in the TEST series.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ CURRENCY_TABLE: JSON.stringify([{ code: 'INR', symbol: '₹', factor: 85, minorDigits: 2 }]) });
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;

describe('maintenance plan in the built-in test checkout', () => {
  it('subscribes, charges monthly, extends support, invoices each charge, and ends at the period end after cancel', async () => {
    const owner = await loginAs(t, 'plan.testmode@example.com');
    // Delivered 400 days ago: the included year is over.
    const order = await insertOrder(t.deps.db, owner.user.id, 'delivered', 'INR', 400);
    expect((await supportWindow(t.deps.db, t.deps.queries.supportExtension, 365, order.id)).covered).toBe(false);
    const base = `/api/v1/orders/${order.publicId}/maintenance`;

    const subscribed = await t.app.inject({
      method: 'POST',
      url: `${base}/subscribe`,
      headers: owner.headers,
      payload: { acceptTerms: true },
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    // No key for the built-in checkout: its page is Checkout.
    expect(subscribed.json()).toEqual({ provider: 'test', subscriptionId: expect.stringMatching(/^sub_test_/), startsAt: null });
    const subId = subscribed.json().subscriptionId as string;

    const page = await t.app.inject({ method: 'GET', url: `/api/v1/payment/test-checkout/subscription/${subId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('TEST MODE');
    // 49 × 85 = ₹4,165 a month, converted like every price.
    expect(page.body).toMatch(/data-testid="test-checkout-amount">₹4,165\.00</);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/payment/test-checkout/subscription/sub_test_nope' })).statusCode).toBe(404);

    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payment/test-checkout/subscription/${subId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=subscribe',
    });
    expect(paid.statusCode).toBe(303);
    const back = new URL(String(paid.headers.location), 'http://x');
    expect(back.pathname).toBe(`/status/${order.publicId}`);
    const fields = Object.fromEntries(back.searchParams);
    expect(fields.razorpay_subscription_id).toBe(subId);
    // Paying twice on a stale page charges nothing more.
    const stale = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payment/test-checkout/subscription/${subId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=subscribe',
    });
    expect(stale.headers.location).toBe(`/status/${order.publicId}`);

    const forged = await t.app.inject({
      method: 'POST',
      url: `${base}/verify`,
      headers: owner.headers,
      payload: { ...fields, razorpay_signature: '0'.repeat(64) },
    });
    expect(forged.statusCode).toBe(400);
    const verified = await t.app.inject({ method: 'POST', url: `${base}/verify`, headers: owner.headers, payload: fields });
    expect(verified.statusCode, verified.body).toBe(200);
    const firstEnd = new Date(verified.json().plan.currentPeriodEnd as string);
    expect(verified.json().plan).toMatchObject({ state: 'active', cancelAtPeriodEnd: false });
    expect(firstEnd.getTime() - Date.now()).toBeGreaterThan(27 * DAY);

    const [sub] = await t.deps.db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.providerSubscriptionId, subId));
    const invoicesOf = () =>
      t.deps.db
        .select({ number: invoices.number, series: invoices.series, amount: invoices.amount, currency: invoices.currency })
        .from(invoices)
        .innerJoin(maintenanceCharges, eq(maintenanceCharges.id, invoices.maintenanceChargeId))
        .where(eq(maintenanceCharges.subscriptionId, sub!.id));
    expect(await invoicesOf()).toEqual([
      { number: expect.stringMatching(/^TEST\//), series: 'test_invoice', amount: 416500, currency: 'INR' },
    ]);
    // The customer finds it with the order's invoices and downloads it (one line for the month).
    const listed = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/order/${order.publicId}`, headers: owner.headers });
    expect(listed.statusCode, listed.body).toBe(200);
    const charged = (listed.json().invoices as { id: string; amount: number; kind: string | null }[]).filter((i) => i.amount === 416500);
    expect(charged).toEqual([expect.objectContaining({ kind: 'invoice', installment: null, testMode: true })]);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/${charged[0]!.id}/pdf`, headers: owner.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // The monthly charge (what the e2e stack triggers): the next month, a second invoice.
    expect(await chargeTestSubscription(t.deps, subId, new Date(firstEnd.getTime() - 60_000))).toBe('charged');
    const [after] = await t.deps.db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.id, sub!.id));
    expect(after!.paidUntil!.getTime()).toBeGreaterThan(firstEnd.getTime() + 27 * DAY);
    const twoInvoices = await invoicesOf();
    expect(twoInvoices).toHaveLength(2);
    expect(new Set(twoInvoices.map((i) => i.number)).size).toBe(2);

    // Support, over since day 365, now runs to the end of the paid period.
    const window = await supportWindow(t.deps.db, t.deps.queries.supportExtension, 365, order.id, new Date(firstEnd.getTime() + DAY));
    expect(window).toMatchObject({
      covered: true,
      supportUntil: after!.paidUntil,
      plan: { state: 'active', currentPeriodEnd: after!.paidUntil },
    });
    expect(
      (await supportWindow(t.deps.db, t.deps.queries.supportExtension, 365, order.id, new Date(after!.paidUntil!.getTime() + 1))).covered,
    ).toBe(false);
    // My Orders reads the same end in its one statement, through the plan's SQL form (decision 285).
    const mine = await t.app.inject({ method: 'GET', url: '/api/v1/order/getAllOrders/user', headers: owner.headers });
    expect(mine.json().orders).toEqual([
      expect.objectContaining({ order_id: order.publicId, supportUntil: after!.paidUntil!.toISOString() }),
    ]);

    // Cancel at the period end: no further charge; once the period is over the plan is cancelled.
    const cancelled = await t.app.inject({ method: 'POST', url: `${base}/cancel`, headers: owner.headers });
    expect(cancelled.json().plan).toMatchObject({ state: 'active', cancelAtPeriodEnd: true });
    expect((await t.app.inject({ method: 'POST', url: `${base}/cancel`, headers: owner.headers })).json()).toEqual(cancelled.json());
    // Changed their mind before the period ends: …/resume keeps the plan renewing (twice: the same
    // answer); another customer cannot; then the cancel again, for the rest of the story.
    const resume = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: `${base}/resume`, headers });
    const kept = await resume(owner.headers);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().plan).toMatchObject({
      state: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: after!.paidUntil!.toISOString(),
    });
    expect((await resume(owner.headers)).json()).toEqual(kept.json());
    const stranger = await loginAs(t, 'plan.stranger@example.com');
    expect((await resume(stranger.headers)).statusCode).toBe(404);
    expect(
      (await supportWindow(t.deps.db, t.deps.queries.supportExtension, 365, order.id, new Date(after!.paidUntil!.getTime() - DAY))).plan,
    ).toMatchObject({ cancelAtPeriodEnd: false });
    expect((await t.app.inject({ method: 'POST', url: `${base}/cancel`, headers: owner.headers })).json().plan).toMatchObject({
      cancelAtPeriodEnd: true,
    });
    expect(await chargeTestSubscription(t.deps, subId, new Date(after!.paidUntil!.getTime() - 60_000))).toBe('over');
    expect(await chargeTestSubscription(t.deps, subId, new Date(after!.paidUntil!.getTime() + 1000))).toBe('cancelled');
    expect(await invoicesOf()).toHaveLength(2);
    const [ended] = await t.deps.db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.id, sub!.id));
    expect(ended).toMatchObject({ state: 'cancelled', paidUntil: after!.paidUntil });
  });

  it('leaving the test checkout says so: back to the order with ?plan=checkout-cancelled, nothing started', async () => {
    const owner = await loginAs(t, 'plan.leaves@example.com');
    const order = await insertOrder(t.deps.db, owner.user.id, 'delivered', 'INR', 400);
    const subId = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${order.publicId}/maintenance/subscribe`,
        headers: owner.headers,
        payload: { acceptTerms: true },
      })
    ).json().subscriptionId as string;
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payment/test-checkout/subscription/${subId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=cancel',
    });
    expect(left.statusCode).toBe(303);
    expect(left.headers.location).toBe(`/status/${order.publicId}?tab=support&plan=checkout-cancelled`);
    const [sub] = await t.deps.db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.providerSubscriptionId, subId));
    expect(sub!.state).toBe('created');
    // Nothing to keep or cancel: no plan was started.
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/orders/${order.publicId}/maintenance/resume`, headers: owner.headers }))
        .statusCode,
    ).toBe(404);
  });
});
