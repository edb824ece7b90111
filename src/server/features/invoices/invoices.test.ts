import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { openCheckout, payInstallment, payOnTestCheckout } from '../../../../tests/helpers/test-checkout.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import type { BuiltApp } from '../../app.ts';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import { loadConfig } from '../../config.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { settlePayment } from '../payments/settle-payment.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { nextNumber } from './issue-invoice.ts';
import { renderInvoicePdf } from './render-pdf.ts';
import { invoiceAttachment } from './invoice-queries.ts';
import { financialYear, formatInvoiceNumber } from '../../../domain/invoice-number.ts';
import { invoiceCounters } from '../../db/schema/invoices.ts';
import { quote } from '../../../domain/pricing.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { formatMoney } from '../../../domain/money.ts';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
const FY = financialYear(new Date());
const SELLER = {
  SELLER_LEGAL_NAME: 'Example Web Studio Pvt Ltd',
  SELLER_ADDRESS: '12 Test Road, Bengaluru 560001',
  SELLER_TAX_ID: '29ABCDE1234F1ZW',
};

describe('invoice numbers', () => {
  it('follow India’s April–March year in India’s time zone, with the configured format', () => {
    expect(financialYear(new Date('2026-11-23T10:00:00Z'))).toBe('2026-27');
    expect(financialYear(new Date('2027-03-31T18:30:00Z'))).toBe('2027-28'); // 18:30 UTC on 31 March is midnight, 1 April, in India
    expect(financialYear(new Date('2027-03-31T18:29:00Z'))).toBe('2026-27');
    expect(
      financialYear(new Date('2026-02-01T00:00:00Z'), {
        startMonth: 1,
        timeZone: 'UTC',
      }),
    ).toBe('2026');
    expect(formatInvoiceNumber('INV/{fy}/{seq:4}', '2026-27', 1)).toBe('INV/2026-27/0001');
    expect(formatInvoiceNumber('{fy}-{seq}', '2026-27', 12345)).toBe('2026-27-12345');
    expect(() => loadConfig({ INVOICE_NUMBER_FORMAT: 'INV-{fy}' })).toThrow(/INVOICE_NUMBER_FORMAT/);
  });
});

type Who = { headers: Record<string, string> };

/** The browser's path with a live Razorpay key: create-order, pay in Razorpay's window, verify. */
async function payLive(t: BuiltApp, rzp: FakeRazorpay, who: Who, body: Record<string, unknown>): Promise<string> {
  const fields = rzp.pay(await openCheckout(t, who, body));
  const verified = await t.app.inject({ method: 'POST', url: '/api/v1/payment/verify-payment', headers: who.headers, payload: fields });
  if (verified.statusCode !== 200) throw new Error(`verify-payment ${verified.statusCode}: ${verified.body}`);
  return verified.json().orderId as string;
}

// Real tax invoices come from live payments: Razorpay with a live key (test keys get the TEST series).
describe('tax invoices', () => {
  let t: TestApp;
  let rzp: FakeRazorpay;
  beforeAll(async () => {
    rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
    t = await buildTestApp({ ...SELLER, ...rzp.env() });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await rzp?.close();
  });
  const get = (url: string, headers?: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers });

  it('issues one invoice per captured installment, attached to the receipt and downloadable by its owner only', async () => {
    const me = await loginAs(t, 'invoice-buyer@example.com');
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/invoices/billing-details',
      headers: me.headers,
      payload: {
        billingName: 'Acme <b>Traders</b>',
        billingAddress: '1 MG Road\nBengaluru',
        taxId: '29aaaaa0000a1z5',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().billing).toEqual({
      billingName: 'Acme <b>Traders</b>',
      billingAddress: '1 MG Road\nBengaluru',
      taxId: '29AAAAA0000A1Z5',
      country: '',
      stateCode: '',
      gstin: '',
    });

    const orderId = await payLive(t, rzp, me, {
      kind: 'advance',
      currency: 'INR',
    });
    const list = await get(`invoices/order/${orderId}`, me.headers);
    expect(list.statusCode, list.body).toBe(200);
    const [inv] = list.json().invoices;
    // Not registered (TAX_REGIME=none, the default): the advance gets a RECEIPT in the receipt
    // series, the remaining payment the INVOICE of the whole order (docs/decisions/221-gst-documents.md).
    expect(inv).toMatchObject({
      number: `RV/${FY}/0001`,
      series: 'receipt_voucher',
      kind: 'receipt',
      installment: 'advance',
      testMode: false,
      currency: 'INR',
      timeZone: 'Asia/Kolkata', // the zone the PDF's date is printed in, shown beside the date
    });

    const pdf = await get(`invoices/${inv.id}/pdf`, me.headers);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`RV-${FY}-0001.pdf`);
    const text = pdfText(pdf.rawPayload);
    // Where the PDF wraps a line depends on the glyphs of the random order id ("order" at the end
    // of one line, the id on the next): the phrases are looked for with the wrapping undone.
    const flowing = text.replace(/\s+/g, ' ');
    for (const s of [
      `RV/${FY}/0001`,
      'RECEIPT',
      'Supplier not registered under GST',
      'Example Web Studio Pvt Ltd',
      'Acme <b>Traders</b>',
      '29AAAAA0000A1Z5',
      `order ${orderId}`,
      'Authorised signatory',
    ]) {
      expect(flowing).toContain(s);
    }
    expect(text).not.toContain('TAX INVOICE');
    expect(text).not.toMatch(/CGST|SGST|IGST/);
    // The server's INR quote, printed with the rupee sign and two decimals.
    const q = quote(findCurrency('INR')!, 0);
    const inr = (minor: number) => escapeRe(formatMoney(minor, { symbol: '₹', minorDigits: 2 }));
    expect(text).toMatch(new RegExp(`Amount of advance received\\s+${inr(q.advance)}`));
    expect(text).toMatch(new RegExp(`Remaining to be paid at completion\\s+${inr(q.remaining)}`));

    // The receipt e-mail carries the same PDF: the outbox names the invoice, the mail worker renders
    // it when it sends (with invoiceAttachment, wired in app.ts; sent over SMTP in
    // tests/api/runtime/crash-after-commit.test.ts).
    const [receipt] = await t.deps.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.template} = 'payment-receipt' and ${mailOutbox.toAddress} = ${me.user.email}`);
    expect(receipt?.renders).toEqual([{ kind: 'invoice', id: inv.id }]);
    const attached = await invoiceAttachment(t.deps, inv.id);
    expect(attached).toMatchObject({ filename: `RV-${FY}-0001.pdf`, contentType: 'application/pdf' });
    expect(pdfText(attached.content)).toContain(`RV/${FY}/0001`);
    expect(receipt!.textBody).toContain(`RV/${FY}/0001`);
    // Its time is in the agency's zone, named (INVOICE_TIME_ZONE; docs/decisions/335-one-rule-for-times.md).
    expect(receipt!.textBody).toMatch(/[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M IST/);

    // Another customer: the same 404 for the invoice and the order's list; nothing leaked.
    const other = await loginAs(t, 'invoice-other@example.com');
    const stolen = await get(`invoices/${inv.id}/pdf`, other.headers);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.body).not.toContain(FY);
    expect((await get(`invoices/order/${orderId}`, other.headers)).statusCode).toBe(404);
    expect((await get(`invoices/${inv.id}/pdf`)).statusCode).toBe(401);
    expect((await get('invoices/not-a-uuid/pdf', me.headers)).statusCode).toBe(400);
    // The back office sees it.
    const admin = await loginAs(t, 'invoice-admin@example.com', 'admin');
    expect((await get(`admin/orders/${orderId}/invoices`, admin.headers)).json().invoices).toHaveLength(1);
    expect((await get(`admin/invoices/${inv.id}/pdf`, admin.headers)).statusCode).toBe(200);
    expect((await get(`admin/invoices/${inv.id}/pdf`, me.headers)).statusCode).toBe(403);

    // The remaining payment: the INVOICE of the whole order, less the advance's receipt.
    for (let i = 0; i < 12; i++) await completeNextStage(t.deps, orderId, {});
    await payLive(t, rzp, me, { kind: 'remaining', orderId });
    const both = (await get(`invoices/order/${orderId}`, me.headers)).json().invoices;
    expect(both.map((i: { number: string; kind: string }) => [i.number, i.kind])).toEqual([
      [`RV/${FY}/0001`, 'receipt'],
      [`INV/${FY}/0001`, 'invoice'],
    ]);
    const second = pdfText((await get(`invoices/${both[1].id}/pdf`, me.headers)).rawPayload);
    expect(second).toMatch(/^\s*INVOICE/m);
    expect(second).toMatch(new RegExp(`Order total\\s+${inr(q.total)}`));
    expect(second).toMatch(new RegExp(`Platform fee\\s+${inr(q.fee)}`));
    expect(second).toMatch(new RegExp(`Less: advance received, RV/${FY}/0001 .*-${inr(q.advance)}`));
    expect(second).toMatch(new RegExp(`Balance paid now\\s+${inr(q.remaining)}`));
  });

  it('never changes or deletes an issued invoice', async () => {
    const [inv] = await t.deps.db.select().from(invoices).limit(1);
    await expect(t.deps.db.update(invoices).set({ amount: 1 }).where(eq(invoices.id, inv!.id))).rejects.toThrow();
    await expect(t.deps.db.delete(invoices).where(eq(invoices.id, inv!.id))).rejects.toThrow();
  });

  it('refuses a billing tax id with HTML or 10 KB of text, and control characters, with 400', async () => {
    const me = await loginAs(t, 'invoice-attacker@example.com');
    const put = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/invoices/billing-details',
        headers: me.headers,
        payload,
      });
    for (const payload of [
      { taxId: '<script>alert(1)</script>' },
      { taxId: 'A'.repeat(10 * 1024) },
      { billingName: 'x'.repeat(10 * 1024) },
      { billingAddress: 'a\u0000b' },
    ]) {
      const r = await put(payload);
      expect(r.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(r.json()).toMatchObject({ success: false });
    }
    expect((await get('invoices/billing-details', me.headers)).json().billing).toEqual({
      billingName: '',
      billingAddress: '',
      taxId: '',
      country: '',
      stateCode: '',
      gstin: '',
    });
  });

  it('issues one invoice when browser and webhook confirm the same payment together', async () => {
    const me = await loginAs(t, 'invoice-race@example.com');
    const before = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(invoices);
    const providerOrderId = await openCheckout(t, me, { kind: 'advance' });
    const fields = rzp.pay(providerOrderId);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        settlePayment(t.deps, {
          providerOrderId,
          paymentId: fields.razorpay_payment_id!,
        }),
      ),
    );
    expect(results.filter((r) => r.outcome === 'paid')).toHaveLength(1);
    const after = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(invoices);
    expect(after[0]!.n - before[0]!.n).toBe(1);
  });

  it('gives a number back when the issuing transaction rolls back (no gap)', async () => {
    const at = new Date();
    await expect(
      t.deps.db.transaction(async (tx) => {
        await nextNumber(t.deps, tx, 'invoice', at);
        throw new Error('payment rolled back');
      }),
    ).rejects.toThrow('payment rolled back');
    const n = await t.deps.db.transaction((tx) => nextNumber(t.deps, tx, 'credit_note', at));
    expect(n.number).toBe(`CN/${FY}/0001`);
    const rows = await t.deps.db
      .select({ seq: invoices.sequence })
      .from(invoices)
      .where(eq(invoices.series, 'invoice'))
      .orderBy(asc(invoices.sequence));
    const last = await t.deps.db
      .transaction(async (tx) => {
        const x = await nextNumber(t.deps, tx, 'invoice', at);
        throw Object.assign(new Error('peek'), { x });
      })
      .catch((e: { x: { sequence: number } }) => e.x);
    expect(last.sequence).toBe(rows.length + 1);
  });

  it('prints the final amounts when the code was withdrawn at payment (its last use went to someone else)', async () => {
    const admin = await loginAs(t, 'invoice-boss@example.com', 'admin');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/coupons',
      headers: admin.headers,
      payload: { code: 'LASTUSE', percent: 10, maxUses: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [late, early] = [await loginAs(t, 'invoice-late@example.com'), await loginAs(t, 'invoice-early@example.com')];
    const lateCheckout = await openCheckout(t, late, { kind: 'advance', currency: 'INR', couponCode: 'LASTUSE' });
    // The late customer's checkout stays open past its hold; meanwhile someone else pays with the last use.
    await t.deps.database.query(`update orders set coupon_hold_until = now() - interval '1 minute' where user_id = $1`, [late.user.id]);
    await payLive(t, rzp, early, { kind: 'advance', currency: 'INR', couponCode: 'LASTUSE' });
    const fields = rzp.pay(lateCheckout);
    expect((await settlePayment(t.deps, { providerOrderId: lateCheckout, paymentId: fields.razorpay_payment_id! })).outcome).toBe('paid');

    const [order] = await t.deps.database.query<{
      id: string;
      public_id: string;
      discount: string;
      total: string;
      advance: string;
      remaining: string;
    }>(
      `select o.id, o.public_id, o.discount::text, o.total::text, a.amount::text as advance, r.amount::text as remaining
         from orders o join installments a on a.order_id = o.id and a.kind = 'advance' join installments r on r.order_id = o.id and r.kind = 'remaining'
        where o.user_id = $1`,
      [late.user.id],
    );
    expect(Number(order!.discount)).toBe(0);
    const [inv] = await t.deps.db.select().from(invoices).where(eq(invoices.orderId, order!.id));
    expect(inv!.snapshot).toMatchObject({
      discount: 0,
      total: Number(order!.total),
      remainingAfter: Number(order!.remaining),
      installment: { amount: Number(order!.advance) },
    });
    expect(Number(order!.advance) + inv!.snapshot.remainingAfter).toBe(inv!.snapshot.total);
    const text = pdfText((await get(`invoices/${inv!.id}/pdf`, late.headers)).rawPayload);
    expect(text).not.toMatch(/Discount/);
    expect(text).toMatch(
      new RegExp(
        `Remaining to be paid at completion\\s+${escapeRe(formatMoney(Number(order!.remaining), { symbol: '₹', minorDigits: 2 }))}`,
      ),
    );
  });

  it("dates an invoice in the financial year's time zone and says which", async () => {
    const [inv] = await t.deps.db.select().from(invoices).limit(1);
    expect(inv!.snapshot.timeZone).toBe('Asia/Kolkata');
    // 19:00 UTC on 31 March is 1 April in India: the date and the year (2026-27) agree.
    const issuedAt = new Date('2026-03-31T19:00:00Z');
    const snapshot = { ...inv!.snapshot, paidAt: issuedAt.toISOString() };
    const text = pdfText(
      await renderInvoicePdf({ number: 'INV/2026-27/0001', series: 'invoice', issuedAt, snapshot, defaultTimeZone: 'UTC' }),
    );
    expect(text).toMatch(/Date: 01 Apr 2026 \(Asia\/Kolkata\)/);
    expect(text).toContain('received 01 Apr 2026');
    expect(financialYear(issuedAt)).toBe('2026-27');
    // A snapshot from before the zone was frozen in is printed in the configured zone.
    const { timeZone: _zone, ...older } = snapshot;
    const oldText = pdfText(
      await renderInvoicePdf({ number: 'INV/2025-26/0009', series: 'invoice', issuedAt, snapshot: older, defaultTimeZone: 'Asia/Kolkata' }),
    );
    expect(oldText).toMatch(/Date: 01 Apr 2026 \(Asia\/Kolkata\)/);
  });
});

// Decision 120: a test-mode payment moved no money, so it never takes a number
// of the tax-invoice series — an operator who goes live later starts at 0001 with no gap.
describe('test-mode payments', () => {
  const apps: { t: TestApp; rzp?: FakeRazorpay }[] = [];
  afterAll(async () => {
    for (const a of apps) {
      await a.t.close();
      await a.rzp?.close();
    }
  });

  const counters = (t: TestApp) =>
    t.deps.db.select({ series: invoiceCounters.series, last: invoiceCounters.lastNumber }).from(invoiceCounters);

  async function expectTestInvoice(t: TestApp, who: Who & { user: { email: string } }, orderId: string, n: number) {
    const [inv] = (await t.app.inject({ method: 'GET', url: `/api/v1/invoices/order/${orderId}`, headers: who.headers })).json().invoices;
    expect(inv).toMatchObject({
      number: `TEST/${FY}/${String(n).padStart(4, '0')}`,
      series: 'test_invoice',
      kind: 'receipt',
      installment: 'advance',
      testMode: true,
    });
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/${inv.id}/pdf`, headers: who.headers });
    expect(pdf.headers['content-disposition']).toContain(`TEST-${FY}-`);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('TEST — NOT A TAX INVOICE');
    expect(text).toContain('no money moved');
    expect(text).not.toMatch(/^\s*TAX INVOICE/m);
    // The receipt names the TEST number and carries the TEST document.
    const [receipt] = await t.deps.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.template} = 'payment-receipt' and ${mailOutbox.toAddress} = ${who.user.email}`);
    expect(receipt!.textBody).toContain(`TEST/${FY}/`);
    expect(receipt!.renders).toEqual([{ kind: 'invoice', id: inv.id }]);
  }

  it('the built-in test checkout numbers its payments TEST/…, and the tax-invoice series is not touched', async () => {
    const t = await buildTestApp(SELLER);
    apps.push({ t });
    for (let i = 1; i <= 2; i++) {
      const me = await loginAs(t, `test-mode-${i}@example.com`);
      await expectTestInvoice(t, me, await payInstallment(t, me, { kind: 'advance' }), i);
    }
    expect(await counters(t)).toEqual([{ series: 'test_invoice', last: 2 }]);
    // The first real number is still 0001.
    const first = await t.deps.db
      .transaction(async (tx) => {
        throw Object.assign(new Error('peek'), { n: await nextNumber(t.deps, tx, 'receipt_voucher', new Date()) });
      })
      .catch((e: { n: { number: string } }) => e.n);
    expect(first.number).toBe(`RV/${FY}/0001`);
  }, 180_000);

  it('Razorpay with a test key (rzp_test_…) is test mode too, decided by the key the order was opened with', async () => {
    const rzp = await startFakeRazorpay({ keyId: 'rzp_test_fakekey' });
    const t = await buildTestApp({ ...SELLER, ...rzp.env() });
    apps.push({ t, rzp });
    const me = await loginAs(t, 'test-mode-rzp@example.com');
    await expectTestInvoice(t, me, await payLive(t, rzp, me, { kind: 'advance' }), 1);
    expect(await counters(t)).toEqual([{ series: 'test_invoice', last: 1 }]);

    // An order opened with a live key is a real payment even if a test key is configured when it is settled.
    const live = await loginAs(t, 'live-mode-rzp@example.com');
    const providerOrderId = await openCheckout(t, live, { kind: 'advance' });
    await t.deps.database.query(`update payment_attempts set test_mode = false where provider_order_id = $1`, [providerOrderId]);
    const fields = rzp.pay(providerOrderId);
    expect((await settlePayment(t.deps, { providerOrderId, paymentId: fields.razorpay_payment_id })).outcome).toBe('paid');
    const [inv] = await t.deps.db
      .select({ number: invoices.number, series: invoices.series })
      .from(invoices)
      .where(eq(invoices.providerPaymentId, fields.razorpay_payment_id));
    expect(inv).toEqual({ number: `RV/${FY}/0001`, series: 'receipt_voucher' });
  }, 180_000);
});

// Two app instances on one PostgreSQL settling the same payments at once.
const baseUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!baseUrl)('invoice numbering with two instances on one PostgreSQL', () => {
  const apps = instancesOnPostgres(2, {});

  it('gives every payment exactly one number, with no gap and no duplicate', async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const payments: { providerOrderId: string; paymentId: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const who = await loginAs(a, `pg-race-${i}@example.com`);
      const providerOrderId = await openCheckout(a, who, { kind: 'advance' });
      const fields = await payOnTestCheckout(a, providerOrderId);
      payments.push({
        providerOrderId,
        paymentId: fields.razorpay_payment_id!,
      });
    }
    // Each payment is confirmed twice on each instance (browser + webhook), all at once.
    await Promise.all(
      payments.flatMap((p) => [settlePayment(a.deps, p), settlePayment(b.deps, p), settlePayment(a.deps, p), settlePayment(b.deps, p)]),
    );
    const rows = await a.deps.db
      .select({
        seq: invoices.sequence,
        number: invoices.number,
        pay: invoices.providerPaymentId,
      })
      .from(invoices)
      .orderBy(asc(invoices.sequence));
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.pay)).size).toBe(10);
    // The built-in test checkout: the TEST series, numbered by the same counter as the real one.
    expect(rows[9]!.number).toBe(`TEST/${FY}/0010`);
  });
});
