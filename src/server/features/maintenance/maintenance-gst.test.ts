import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { GST_SELLER, insertOrder } from '../../../../tests/fixtures/maintenance-orders.ts';
import { maintenanceCharges, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { invoiceAttachment } from '../invoices/invoice-queries.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { chargeTestSubscription } from './test-charges.ts';
import { REPRICE_TEMPLATE } from './reprice.ts';
import { planName, providerPlanId } from './subscribe.ts';
import { formatDate } from '../../../domain/when.ts';

// The maintenance plan with its GST (docs/decisions/322-maintenance-plan-gst.md): the monthly quote
// — ₹4,165.00 (49 × 85) + GST for a buyer in India — is what the Razorpay plan charges, what the
// Support tab offers and what each month's tax invoice splits; plans opened at the old flat price
// are listed for the owner and moved, one explicit act each, at the next cycle.

vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
const TABLE = JSON.stringify([
  { code: 'USD', symbol: '$', factor: 1, minorDigits: 2 },
  { code: 'INR', symbol: '₹', factor: 85, minorDigits: 2 },
]);
const SELLER = { ...GST_SELLER, CURRENCY_TABLE: TABLE };
/** 49 × 85 = ₹4,165.00; 9 % of it ₹374.85, 18 % ₹749.70: ₹4,914.70 a month either way. */
const PRICE = 416_500;
const TOTAL = 491_470;

type Who = Awaited<ReturnType<typeof loginAs>>;

function harness() {
  const h = {} as { t: TestApp; rzp: FakeRazorpay };
  const billing = (who: Who, payload: Record<string, unknown>) =>
    h.t.app.inject({
      method: 'PUT',
      url: '/api/v1/invoices/billing-details',
      headers: who.headers,
      payload: { billingName: 'Plan Buyer', ...payload },
    });
  const subscribe = (who: Who, orderPublicId: string) =>
    h.t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderPublicId}/maintenance/subscribe`,
      headers: who.headers,
      payload: { acceptTerms: true },
    });
  const deliver = (d: { body: string; headers: Record<string, string> }) =>
    h.t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: d.headers, payload: d.body });
  const invoiceOf = async (providerSubscriptionId: string) =>
    (
      await h.t.deps.db
        .select({ invoice: invoices })
        .from(invoices)
        .innerJoin(maintenanceCharges, eq(maintenanceCharges.id, invoices.maintenanceChargeId))
        .innerJoin(maintenanceSubscriptions, eq(maintenanceSubscriptions.id, maintenanceCharges.subscriptionId))
        .where(eq(maintenanceSubscriptions.providerSubscriptionId, providerSubscriptionId))
        .orderBy(invoices.issuedAt)
    ).map((r) => r.invoice);
  const support = async (who: Who, orderPublicId: string) => {
    const r = await h.t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderPublicId}/support`, headers: who.headers });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().planOffer;
  };
  /** A buyer with billing details, an INR order delivered long ago (the plan starts at once), subscribed and charged its first month by Razorpay's webhook. */
  async function chargedPlan(email: string, details: Record<string, unknown>, currency = 'INR') {
    const who = await loginAs(h.t, email);
    expect((await billing(who, details)).statusCode).toBe(200);
    const order = await insertOrder(h.t.deps.db, who.user.id, 'delivered', currency, 400);
    const res = await subscribe(who, order.publicId);
    expect(res.statusCode, res.body).toBe(200);
    const subId = res.json().subscriptionId as string;
    const { payment } = h.rzp.chargeSubscription(subId);
    expect((await deliver(h.rzp.subscriptionWebhook('subscription.charged', subId, { payment }))).json()).toEqual({ status: 'processed' });
    const plan = h.rzp.plans.get(h.rzp.subscriptions.get(subId)!.plan_id)!;
    return { who, order, subId, plan, invoices: await invoiceOf(subId) };
  }
  /** As the code before GST on the plan made it: a provider plan of the price alone, the subscription at that amount (no price), its first month charged. */
  async function flatPlanCharged(email: string) {
    const who = await loginAs(h.t, email);
    const order = await insertOrder(h.t.deps.db, who.user.id, 'delivered', 'INR', 400);
    const { provider } = moneyContext(h.t.deps);
    const flatPlan = await provider.subscriptions.createPlan({ amount: PRICE, currency: 'INR', name: 'Old flat plan' });
    const created = await provider.subscriptions.createSubscription({
      planId: flatPlan.id,
      totalCount: 120,
      notes: { order_id: order.publicId },
    });
    await h.t.deps.database.query(
      `insert into maintenance_subscriptions (order_id, provider, provider_subscription_id, provider_plan_id, currency, amount, state)
       values ($1, 'razorpay', $2, $3, 'INR', $4, 'created')`,
      [order.id, created.id, flatPlan.id, PRICE],
    );
    const first = h.rzp.chargeSubscription(created.id);
    expect(first.payment.amount).toBe(PRICE);
    expect((await deliver(h.rzp.subscriptionWebhook('subscription.charged', created.id, { payment: first.payment }))).json()).toEqual({
      status: 'processed',
    });
    const [sub] = await h.t.deps.db
      .select()
      .from(maintenanceSubscriptions)
      .where(eq(maintenanceSubscriptions.providerSubscriptionId, created.id));
    return { who, order, flatPlan, created, sub: sub! };
  }
  return { h, billing, subscribe, deliver, invoiceOf, support, chargedPlan, flatPlanCharged };
}

describe('GST registered in Karnataka, prices without tax (Razorpay)', () => {
  const { h, deliver, invoiceOf, support, chargedPlan, flatPlanCharged } = harness();
  let owner: Who;
  let staff: Who;
  beforeAll(async () => {
    h.rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
    h.t = await buildTestApp({ ...SELLER, ...h.rzp.env() });
    owner = await loginAs(h.t, 'plan-gst.owner@example.com', 'admin');
    staff = await loginAs(h.t, 'plan-gst.staff@example.com', 'staff');
  });
  afterAll(async () => {
    await h.t?.close();
    await h.rzp?.close();
  });

  it('a Karnataka buyer is offered and charged ₹4,165.00 + CGST ₹374.85 + SGST ₹374.85 = ₹4,914.70, and the month’s invoice splits it', async () => {
    const plan = await chargedPlan('plan-gst.ka@example.com', { country: 'IN', stateCode: '29' });
    // The Razorpay plan is made at the total with GST: price × 1.18.
    expect(plan.plan.item).toMatchObject({ amount: TOTAL, currency: 'INR' });
    expect(TOTAL).toBe(Math.round(PRICE * 1.18));
    const [sub] = await h.t.deps.db
      .select()
      .from(maintenanceSubscriptions)
      .where(eq(maintenanceSubscriptions.providerSubscriptionId, plan.subId));
    expect(sub).toMatchObject({ amount: TOTAL, price: PRICE, currency: 'INR', state: 'active', pendingAmount: null });

    // The Support tab offers the same quote.
    expect(await support(plan.who, plan.order.publicId)).toMatchObject({
      monthlyPrice: PRICE,
      priceLabel: '₹4,165.00',
      plusGst: true,
      gstIncluded: false,
      total: TOTAL,
      totalLabel: '₹4,914.70',
      taxableValue: PRICE,
      taxes: [
        { kind: 'CGST', rate: 9, amount: 37_485, label: '₹374.85' },
        { kind: 'SGST', rate: 9, amount: 37_485, label: '₹374.85' },
      ],
    });

    // The month's tax invoice: taxable ₹4,165.00, CGST and SGST equal, the total in words.
    expect(plan.invoices).toHaveLength(1);
    const inv = plan.invoices[0]!;
    expect(inv).toMatchObject({
      docKind: 'tax_invoice',
      amount: TOTAL,
      taxableValue: PRICE,
      taxAmount: 74_970,
      supplyType: 'intra',
      placeOfSupplyCode: '29',
    });
    expect(inv.snapshot.document!.taxes).toEqual([
      { kind: 'CGST', rate: 9, amount: 37_485 },
      { kind: 'SGST', rate: 9, amount: 37_485 },
    ]);
    expect(inv.snapshot.document!.amountInWords).toBe('Rupees Four Thousand Nine Hundred Fourteen and Seventy Paise Only');
    const text = pdfText((await invoiceAttachment(h.t.deps, inv.id)).content);
    expect(text).toMatch(/CGST/);
    expect(text).toMatch(/SGST/);
    expect(text).toContain('374.85');
    expect(text).toContain('4,914.70');

    // It is no plan "priced without GST".
    const overview = await h.t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers });
    expect(overview.json().maintenance.withoutGst.map((p: { orderId: string }) => p.orderId)).not.toContain(plan.order.publicId);
  });

  it('a Maharashtra buyer pays IGST ₹749.70 on the same total, and an export under the LUT pays none', async () => {
    const mh = await chargedPlan('plan-gst.mh@example.com', { country: 'IN', stateCode: '27' });
    expect(mh.plan.item).toMatchObject({ amount: TOTAL, currency: 'INR' });
    expect(mh.invoices[0]).toMatchObject({
      amount: TOTAL,
      taxableValue: PRICE,
      taxAmount: 74_970,
      supplyType: 'inter',
      placeOfSupplyCode: '27',
    });
    expect(mh.invoices[0]!.snapshot.document!.taxes).toEqual([{ kind: 'IGST', rate: 18, amount: 74_970 }]);

    // A buyer in the United States paying dollars: an export, zero-rated under the LUT — $49.00 flat.
    const us = await chargedPlan('plan-gst.us@example.com', { country: 'US' }, 'USD');
    expect(us.plan.item).toMatchObject({ amount: 4900, currency: 'USD' });
    expect(us.invoices[0]).toMatchObject({ amount: 4900, taxableValue: 4900, taxAmount: 0, supplyType: 'export' });
    expect(us.invoices[0]!.snapshot.document!.taxes).toEqual([]);
    expect(await support(us.who, us.order.publicId)).toMatchObject({
      monthlyPrice: 4900,
      total: 4900,
      plusGst: false,
      gstIncluded: false,
      taxes: [],
    });
  });

  it('a plan opened at the old flat price is listed for the owner, and moved to its price with GST at the next cycle by one PATCH, once', async () => {
    const { who, order, flatPlan, created, sub } = await flatPlanCharged('plan-gst.flat@example.com');
    // Its month so far: the tax is inside what was paid (the rates make ₹635.34 of ₹4,165.00 tax).
    const [flatInvoice] = await invoiceOf(created.id);
    expect(flatInvoice).toMatchObject({ amount: PRICE, taxableValue: 352_966, taxAmount: 63_534 });

    // The overview lists it for the owner; staff get no such field.
    const listed = async (who: Who) =>
      (await h.t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: who.headers })).json().maintenance;
    expect((await listed(owner)).withoutGst).toContainEqual({
      id: sub!.id,
      orderId: order.publicId,
      state: 'active',
      currency: 'INR',
      amount: PRICE,
      newAmount: TOTAL,
      pendingAmount: null,
      pendingFrom: null,
    });
    expect(await listed(staff)).not.toHaveProperty('withoutGst');

    // Staff cannot reprice; nothing is asked of Razorpay.
    const url = `/api/v1/admin/maintenance/subscriptions/${sub!.id}/reprice`;
    expect((await h.t.app.inject({ method: 'POST', url, headers: staff.headers })).statusCode).toBe(403);
    expect((await h.t.app.inject({ method: 'POST', url, headers: who.headers })).statusCode).toBe(403);
    expect(h.rzp.updates).toEqual([]);

    // A double click: both answered the same, one PATCH with the plan of ₹4,914.70 at the cycle's end.
    const [a, b] = await Promise.all([
      h.t.app.inject({ method: 'POST', url, headers: owner.headers }),
      h.t.app.inject({ method: 'POST', url, headers: owner.headers }),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    const paidUntil = sub!.paidUntil!.toISOString();
    const answer = {
      id: sub!.id,
      orderId: order.publicId,
      state: 'active',
      currency: 'INR',
      amount: PRICE,
      newAmount: TOTAL,
      pendingAmount: TOTAL,
      pendingFrom: paidUntil,
    };
    expect(a.json()).toEqual({ success: true, plan: answer });
    expect(b.json()).toEqual({ success: true, plan: answer });
    expect((await h.t.app.inject({ method: 'POST', url, headers: owner.headers })).json()).toEqual({ success: true, plan: answer });
    expect(h.rzp.updates).toHaveLength(1);
    const [update] = h.rzp.updates;
    expect(update).toMatchObject({ subscriptionId: created.id, scheduleChangeAt: 'cycle_end' });
    expect(h.rzp.plans.get(update!.planId)!.item).toMatchObject({ amount: TOTAL, currency: 'INR' });
    expect(h.rzp.subscriptions.get(created.id)).toMatchObject({ plan_id: flatPlan.id, has_scheduled_changes: true });

    // Recorded: the pending plan and amount, one audit record, one mail to the customer with the new amount.
    const [pending] = await h.t.deps.db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.id, sub!.id));
    expect(pending).toMatchObject({
      amount: PRICE,
      price: PRICE,
      pendingPlanId: update!.planId,
      pendingAmount: TOTAL,
      repriceRequestedAt: null,
    });
    const audits = await h.t.deps.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, 'maintenance.reprice'), eq(adminAuditLog.entityId, sub!.id)));
    expect(audits).toHaveLength(1);
    const mails = await h.t.deps.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.template} = ${REPRICE_TEMPLATE} and ${mailOutbox.toAddress} = ${who.user.email}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your maintenance plan from ${formatDate(paidUntil, 'Asia/Kolkata')}: ₹4,914.70 a month`);
    expect(mails[0]!.textBody).toContain('₹4,165.00 + GST (CGST 9 % ₹374.85 + SGST 9 % ₹374.85)');
    // Still listed, as moved, until the new amount is charged; the order's detail says it to the owner only.
    expect((await listed(owner)).withoutGst).toContainEqual(answer);
    const detail = async (by: Who) =>
      (await h.t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${order.publicId}`, headers: by.headers })).json().maintenance;
    expect((await detail(owner)).pending).toEqual({ amount: TOTAL, from: paidUntil });
    expect(await detail(staff)).not.toHaveProperty('pending');

    // The next cycle: Razorpay charges the new plan; the plan takes it, and its invoice splits the GST.
    const next = h.rzp.chargeSubscription(created.id);
    expect(next.payment.amount).toBe(TOTAL);
    expect((await deliver(h.rzp.subscriptionWebhook('subscription.charged', created.id, { payment: next.payment }))).json()).toEqual({
      status: 'processed',
    });
    const [after] = await h.t.deps.db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.id, sub!.id));
    expect(after).toMatchObject({
      amount: TOTAL,
      price: PRICE,
      providerPlanId: update!.planId,
      pendingPlanId: null,
      pendingAmount: null,
      pendingFrom: null,
    });
    expect((await detail(owner)).pending).toBeNull();
    const [, second] = await invoiceOf(created.id);
    expect(second).toMatchObject({ amount: TOTAL, taxableValue: PRICE, taxAmount: 74_970 });
    expect((await listed(owner)).withoutGst.map((p: { id: string }) => p.id)).not.toContain(sub!.id);
    // Done: another reprice changes nothing (409, no PATCH).
    expect((await h.t.app.inject({ method: 'POST', url, headers: owner.headers })).statusCode).toBe(409);
    expect(h.rzp.updates).toHaveLength(1);
  });

  it('a change Razorpay took but we never recorded (a crash between) is still credited: the charge on our plan of the new amount', async () => {
    const { created, sub } = await flatPlanCharged('plan-gst.crash@example.com');
    const { provider } = moneyContext(h.t.deps);
    const planId = await providerPlanId(h.t.deps.db, provider, { amount: TOTAL, currency: 'INR' }, planName(h.t.deps));
    await provider.subscriptions.changePlanAtCycleEnd(created.id, planId);
    const next = h.rzp.chargeSubscription(created.id);
    expect(next.payment.amount).toBe(TOTAL);
    expect((await deliver(h.rzp.subscriptionWebhook('subscription.charged', created.id, { payment: next.payment }))).json()).toEqual({
      status: 'processed',
    });
    const [after] = await h.t.deps.db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.id, sub.id));
    expect(after).toMatchObject({ amount: TOTAL, price: PRICE, providerPlanId: planId, pendingAmount: null });
    expect((await invoiceOf(created.id))[1]).toMatchObject({ amount: TOTAL, taxableValue: PRICE, taxAmount: 74_970 });
  });

  it('the fake refuses a PATCH to an unknown plan or with another schedule_change_at, as Razorpay does', async () => {
    const plan = await chargedPlan('plan-gst.fake@example.com', { country: 'IN', stateCode: '29' });
    const patch = (body: unknown) =>
      fetch(`${h.rzp.url}/v1/subscriptions/${plan.subId}`, {
        method: 'PATCH',
        headers: {
          authorization: `Basic ${Buffer.from(`${h.rzp.keyId}:${h.rzp.keySecret}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    expect((await patch({ plan_id: 'plan_nope', schedule_change_at: 'cycle_end' })).status).toBe(400);
    expect((await patch({ plan_id: plan.plan.id, schedule_change_at: 'tomorrow' })).status).toBe(400);
    expect(h.rzp.updates.filter((u) => u.subscriptionId === plan.subId)).toEqual([]);
  });
});

describe('GST registered, PRICES_INCLUDE_TAX=true (Razorpay)', () => {
  const { h, support, chargedPlan } = harness();
  beforeAll(async () => {
    h.rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
    h.t = await buildTestApp({ ...SELLER, PRICES_INCLUDE_TAX: 'true', ...h.rzp.env() });
  });
  afterAll(async () => {
    await h.t?.close();
    await h.rzp?.close();
  });

  it('the tax is taken out of ₹4,165.00: the plan charges the price, the invoice shows taxable ₹3,529.66 + CGST ₹317.67 + SGST ₹317.67', async () => {
    const plan = await chargedPlan('plan-gst.incl@example.com', { country: 'IN', stateCode: '29' });
    expect(plan.plan.item).toMatchObject({ amount: PRICE, currency: 'INR' });
    expect(await support(plan.who, plan.order.publicId)).toMatchObject({
      priceLabel: '₹4,165.00',
      plusGst: false,
      gstIncluded: true,
      total: PRICE,
      taxableValue: 352_966,
      taxes: [
        { kind: 'CGST', rate: 9, amount: 31_767 },
        { kind: 'SGST', rate: 9, amount: 31_767 },
      ],
    });
    expect(plan.invoices[0]).toMatchObject({ amount: PRICE, taxableValue: 352_966, taxAmount: 63_534, supplyType: 'intra' });
    // Nothing is "priced without GST" when prices include it.
    const owner = await loginAs(h.t, 'plan-gst.incl-owner@example.com', 'admin');
    expect(
      (await h.t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers })).json().maintenance.withoutGst,
    ).toEqual([]);
  });
});

describe('GST registered, the built-in test checkout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ ...SELLER });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the test checkout’s plan charges the same total: ₹4,914.70 (₹4,165.00 + GST), invoiced in the TEST series with its split', async () => {
    const who = await loginAs(t, 'plan-gst.testmode@example.com');
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/v1/invoices/billing-details',
          headers: who.headers,
          payload: { billingName: 'Test Buyer', country: 'IN', stateCode: '29' },
        })
      ).statusCode,
    ).toBe(200);
    const order = await insertOrder(t.deps.db, who.user.id, 'delivered', 'INR', 400);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${order.publicId}/maintenance/subscribe`,
      headers: who.headers,
      payload: { acceptTerms: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const subId = res.json().subscriptionId as string;
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/payment/test-checkout/subscription/${subId}` });
    expect(page.body).toContain('data-testid="test-checkout-amount">₹4,914.70</strong> (₹4,165.00 + GST) a month');
    expect(await chargeTestSubscription(t.deps, subId, new Date())).toBe('charged');
    const [row] = await t.deps.db
      .select({ invoice: invoices })
      .from(invoices)
      .innerJoin(maintenanceCharges, eq(maintenanceCharges.id, invoices.maintenanceChargeId))
      .innerJoin(maintenanceSubscriptions, eq(maintenanceSubscriptions.id, maintenanceCharges.subscriptionId))
      .where(eq(maintenanceSubscriptions.providerSubscriptionId, subId));
    expect(row!.invoice).toMatchObject({
      series: 'test_invoice',
      amount: TOTAL,
      taxableValue: PRICE,
      taxAmount: 74_970,
      supplyType: 'intra',
    });
  });
});
