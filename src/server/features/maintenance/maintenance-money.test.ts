import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { GST_SELLER, insertOrder } from '../../../../tests/fixtures/maintenance-orders.ts';
import { maintenanceCharges, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { invoiceAttachment } from '../invoices/invoice-queries.ts';
import { supportWindow } from '../support/support-window.ts';
import { chargeTestSubscription } from './test-charges.ts';
import { MAINTENANCE_TERMS_VERSION, clientHash } from '../terms/terms-acceptance.ts';
import { maintenancePeriodLabel } from '../../../domain/maintenance-plan.ts';

// The plan's money (docs/decisions/265-maintenance-start-is-the-servers.md to
// docs/decisions/269-maintenance-in-lists-and-revenue.md): subscribed during the included support
// nothing is charged before it ends — whatever the request asks —, the maintenance terms are
// accepted and recorded, and each charge gets its tax invoice for the month, a receipt mail carrying
// it, a "Maintenance, <month>" line in the lists, the overview's revenue and the month's return.

vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

const DAY = 86_400_000;
const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
const SELLER = GST_SELLER;

type Who = Awaited<ReturnType<typeof loginAs>>;
const receiptsOf = (t: TestApp, email: string) =>
  t.deps.db
    .select()
    .from(mailOutbox)
    .where(sql`${mailOutbox.template} = 'payment-receipt' and ${mailOutbox.toAddress} = ${email}`);
const chargesOf = (t: TestApp, subscriptionId: string) =>
  t.deps.db
    .select({ charge: maintenanceCharges, invoice: invoices })
    .from(maintenanceCharges)
    .innerJoin(maintenanceSubscriptions, eq(maintenanceSubscriptions.id, maintenanceCharges.subscriptionId))
    .leftJoin(invoices, eq(invoices.maintenanceChargeId, maintenanceCharges.id))
    .where(eq(maintenanceSubscriptions.providerSubscriptionId, subscriptionId));

describe('with Razorpay Subscriptions (live key, GST registered)', () => {
  let t: TestApp;
  let rzp: FakeRazorpay;
  let admin: Who;
  beforeAll(async () => {
    rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
    t = await buildTestApp({
      ...SELLER,
      ...rzp.env(),
      CURRENCY_TABLE: JSON.stringify([
        { code: 'USD', symbol: '$', factor: 1, minorDigits: 2 },
        { code: 'INR', symbol: '₹', factor: 85, minorDigits: 2 },
      ]),
    });
    admin = await loginAs(t, 'plan-money.owner@example.com', 'admin');
  });
  afterAll(async () => {
    await t?.close();
    await rzp?.close();
  });
  const subscribe = (who: Who, orderPublicId: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderPublicId}/maintenance/subscribe`,
      headers: { ...who.headers, ...headers },
      ...(payload ? { payload } : {}),
    });
  const deliver = (d: { body: string; headers: Record<string, string> }) =>
    t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: d.headers, payload: d.body });

  it('refuses to subscribe without the maintenance terms accepted, and records the acceptance like the checkout’s', async () => {
    const owner = await loginAs(t, 'plan-money.terms@example.com');
    const order = await insertOrder(t.deps.db, owner.user.id, 'delivered', 'INR', 400);
    for (const body of [undefined, {}, { acceptTerms: false }]) {
      const res = await subscribe(owner, order.publicId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe('Please agree to the maintenance plan terms before subscribing (acceptTerms: true).');
    }
    expect((await subscribe(owner, order.publicId, { acceptTerms: 'yes' })).statusCode).toBe(400);
    expect(rzp.subscriptions.size).toBe(0);

    const before = Date.now();
    const ok = await subscribe(owner, order.publicId, { acceptTerms: true }, { 'user-agent': 'Mozilla/5.0 (plan terms)' });
    expect(ok.statusCode, ok.body).toBe(200);
    const [sub] = await t.deps.db
      .select()
      .from(maintenanceSubscriptions)
      .where(eq(maintenanceSubscriptions.providerSubscriptionId, ok.json().subscriptionId));
    expect(sub).toMatchObject({
      termsVersion: MAINTENANCE_TERMS_VERSION,
      termsClientHash: clientHash(order.publicId, '127.0.0.1', 'Mozilla/5.0 (plan terms)'),
    });
    expect(sub!.termsAcceptedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(MAINTENANCE_TERMS_VERSION).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a maintenance subscription during the window charges nothing until the window ends — even when the request asks to start now', async () => {
    const owner = await loginAs(t, 'plan-money.window@example.com');
    const order = await insertOrder(t.deps.db, owner.user.id, 'delivered', 'INR', 30);
    const { includedUntil } = await supportWindow(t.deps.db, t.deps.queries.supportExtension, 365, order.id);
    // Attack: the request asks to start at once (every way a client might spell it).
    const res = await subscribe(owner, order.publicId, {
      acceptTerms: true,
      startNow: true,
      startAt: new Date().toISOString(),
      start_at: Math.floor(Date.now() / 1000) + 60,
      startsAt: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().startsAt).toBe(includedUntil!.toISOString());
    const subId = res.json().subscriptionId as string;
    // Razorpay is told to start at the end of the included support, not now.
    expect(rzp.subscriptions.get(subId)!.start_at).toBe(Math.floor(includedUntil!.getTime() / 1000));

    // Checkout only authorises: the plan waits, nothing is charged, invoiced or mailed.
    const verified = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${order.publicId}/maintenance/verify`,
      headers: owner.headers,
      payload: rzp.authoriseSubscription(subId),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().plan).toEqual({
      state: 'authenticated',
      startsAt: includedUntil!.toISOString(),
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
    });
    expect(await chargesOf(t, subId)).toEqual([]);
    expect(await receiptsOf(t, owner.user.email)).toEqual([]);

    // At the end of the window Razorpay charges the first month: it pays from that day.
    const { payment } = rzp.chargeSubscription(subId);
    const at = Math.floor(includedUntil!.getTime() / 1000);
    expect((await deliver(rzp.subscriptionWebhook('subscription.charged', subId, { payment, createdAt: at }))).json()).toEqual({
      status: 'processed',
    });
    const [charged] = await chargesOf(t, subId);
    // Razorpay's times are whole seconds.
    expect(charged!.charge.periodStart.getTime()).toBe(at * 1000);
    expect(charged!.invoice).toMatchObject({ docKind: 'tax_invoice', series: 'invoice', testMode: false });
  });

  it(
    'each charge issues its tax invoice for the month and a receipt carrying it; listed as "Maintenance, ' +
      '<month>", in the revenue and the return',
    async () => {
      const owner = await loginAs(t, 'plan-money.charge@example.com');
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/invoices/billing-details',
        headers: owner.headers,
        payload: { billingName: 'Asha Patil', country: 'IN', stateCode: '27' },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      // The included support is over: the plan starts at once.
      const order = await insertOrder(t.deps.db, owner.user.id, 'delivered', 'INR', 400);
      const overview = async () => {
        const r = await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: admin.headers });
        expect(r.statusCode, r.body).toBe(200);
        return (r.json().revenue as { currency: string; total: number }[]).find((x) => x.currency === 'INR')?.total ?? 0;
      };
      const revenueBefore = await overview();
      const subId = (await subscribe(owner, order.publicId, { acceptTerms: true })).json().subscriptionId as string;
      expect(rzp.subscriptions.get(subId)!.start_at).toBeNull();
      const { payment, checkout } = rzp.chargeSubscription(subId);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/v1/orders/${order.publicId}/maintenance/verify`,
            headers: owner.headers,
            payload: checkout,
          })
        ).statusCode,
      ).toBe(200);
      expect((await deliver(rzp.subscriptionWebhook('subscription.charged', subId, { payment }))).json()).toEqual({ status: 'processed' });

      const [charged] = await chargesOf(t, subId);
      const inv = charged!.invoice!;
      // 49 × 85 = ₹4,165 a month + IGST 18 % for this Maharashtra buyer: Razorpay charges ₹4,914.70 and the
      // month's tax invoice splits it (docs/decisions/322-maintenance-plan-gst.md; this test charged
      // ₹4,165.00 flat, with the tax taken out of it, before the plan added its GST).
      expect(inv).toMatchObject({
        docKind: 'tax_invoice',
        amount: 491470,
        taxableValue: 416500,
        taxAmount: 74970,
        currency: 'INR',
        testMode: false,
      });
      const month = maintenancePeriodLabel(charged!.charge.periodStart, t.deps.config.INVOICE_TIME_ZONE);
      expect(month).toMatch(/^Maintenance, [A-Z][a-z]{2} \d{4}$/);

      // The receipt, queued in the charging transaction, carries the invoice (rendered when sent).
      const receipts = await receiptsOf(t, owner.user.email);
      expect(receipts).toHaveLength(1);
      expect(receipts[0]!.renders).toEqual([{ kind: 'invoice', id: inv.id }]);
      expect(receipts[0]!.subject).toBe(`Receipt: ${month} for order ${order.publicId}`);
      expect(receipts[0]!.textBody).toContain(inv.number);
      const text = pdfText((await invoiceAttachment(t.deps, inv.id)).content);
      expect(text).toMatch(/^\s*TAX INVOICE/m);
      expect(text).toContain(inv.number);
      expect(text).toContain(month);
      expect(text).toContain('Website maintenance plan (monthly)');

      // Listed as the month it pays, for the customer and the founder (not as an installment).
      const listed = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/order/${order.publicId}`, headers: owner.headers });
      expect(listed.json().invoices).toEqual([expect.objectContaining({ id: inv.id, installment: null, label: month })]);
      const adminListed = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/orders/${order.publicId}/invoices`,
        headers: admin.headers,
      });
      expect(adminListed.json().invoices.find((i: { id: string }) => i.id === inv.id)).toMatchObject({ label: month });

      // The overview's revenue counts what was charged.
      expect((await overview()) - revenueBefore).toBe(491470);

      // The month's return: a consumer in Maharashtra, so b2cs, and in the documents issued.
      const period = new Intl.DateTimeFormat('en-CA', { timeZone: t.deps.config.INVOICE_TIME_ZONE, year: 'numeric', month: '2-digit' })
        .format(inv.issuedAt)
        .slice(0, 7);
      const ret = await t.app.inject({ method: 'GET', url: `/api/v1/admin/tax/returns/${period}`, headers: admin.headers });
      expect(ret.statusCode, ret.body).toBe(200);
      expect(ret.json().reconciled).toBe(true);
      expect(ret.json().tables.b2cs.rows).toContainEqual(
        expect.objectContaining({ placeOfSupply: '27-Maharashtra', rate: 18, taxableValue: inv.taxableValue }),
      );
      expect(ret.json().tables.hsn.totals.taxableValue).toBeGreaterThanOrEqual(inv.taxableValue!);
    },
  );
});

describe('with the built-in test checkout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ CURRENCY_TABLE: JSON.stringify([{ code: 'INR', symbol: '₹', factor: 85, minorDigits: 2 }]) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a maintenance subscription during the window charges nothing until the window ends — even when the request asks to start now', async () => {
    const owner = await loginAs(t, 'plan-money.testmode@example.com');
    const order = await insertOrder(t.deps.db, owner.user.id, 'delivered', 'INR', 30);
    const { includedUntil } = await supportWindow(t.deps.db, t.deps.queries.supportExtension, 365, order.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${order.publicId}/maintenance/subscribe`,
      headers: owner.headers,
      payload: { acceptTerms: true, startNow: true, startAt: new Date().toISOString() },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().startsAt).toBe(includedUntil!.toISOString());
    const subId = res.json().subscriptionId as string;
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/payment/test-checkout/subscription/${subId}` });
    expect(page.body).toContain(`first charged on ${includedUntil!.toISOString().slice(0, 10)} (nothing now)`);

    // "Subscribe" on the test page only authorises; a charge before the window's end is refused.
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payment/test-checkout/subscription/${subId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=subscribe',
    });
    expect(paid.statusCode).toBe(303);
    // The page's form knows no other action (a "charge now" forged on it).
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/payment/test-checkout/subscription/${subId}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'action=charge',
        })
      ).statusCode,
    ).toBe(400);
    const fields = Object.fromEntries(new URL(String(paid.headers.location), 'http://x').searchParams);
    const verified = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${order.publicId}/maintenance/verify`,
      headers: owner.headers,
      payload: fields,
    });
    expect(verified.json().plan).toMatchObject({ state: 'authenticated', startsAt: includedUntil!.toISOString(), currentPeriodEnd: null });
    expect(await chargeTestSubscription(t.deps, subId, new Date(includedUntil!.getTime() - 60_000))).toBe('not_due');
    expect(await chargesOf(t, subId)).toEqual([]);
    expect(await receiptsOf(t, owner.user.email)).toEqual([]);

    // At the window's end the first month is charged, from that day, with its invoice and receipt.
    expect(await chargeTestSubscription(t.deps, subId, includedUntil!)).toBe('charged');
    const [charged] = await chargesOf(t, subId);
    expect(charged!.charge.periodStart.getTime()).toBe(includedUntil!.getTime());
    expect(charged!.charge.periodEnd.getTime() - includedUntil!.getTime()).toBeGreaterThan(27 * DAY);
    expect(charged!.invoice).toMatchObject({ series: 'test_invoice', testMode: true, amount: 416500 });
    const receipts = await receiptsOf(t, owner.user.email);
    expect(receipts.map((r) => r.renders)).toEqual([[{ kind: 'invoice', id: charged!.invoice!.id }]]);
    expect(receipts[0]!.subject).toContain(maintenancePeriodLabel(includedUntil!, t.deps.config.INVOICE_TIME_ZONE));
    const text = pdfText((await invoiceAttachment(t.deps, charged!.invoice!.id)).content);
    expect(text).toContain('TEST — NOT A TAX INVOICE');
    expect(text).toContain(maintenancePeriodLabel(includedUntil!, t.deps.config.INVOICE_TIME_ZONE));
    // A second charge at the same time (a retried trigger) pays the next month: one invoice each.
    expect(await chargeTestSubscription(t.deps, subId, includedUntil!)).toBe('charged');
    const [row] = await t.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(and(eq(invoices.orderId, order.id), eq(invoices.testMode, true)));
    expect(row!.n).toBe(2);
  });
});
