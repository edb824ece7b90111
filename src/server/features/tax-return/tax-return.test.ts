import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { openCheckout, payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { gstinCheckCharacter } from '../../../domain/gst.ts';

// The monthly return on the real app (docs/decisions/245-gstr1-monthly-return.md): three buyers pay
// with a live-mode key against the fake Razorpay; the month's GSTR-1 tables agree with the documents
// issued, to the paisa, and the CSV follows the offline tool's layout with formulas neutralised.

const SELLER_GSTIN = '29AAGCB7383J1Z4';
const KA_GSTIN = '29AAPFU0939F1Z' + gstinCheckCharacter('29AAPFU0939F1Z');
const period = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit' })
  .format(new Date())
  .slice(0, 7);

describe('GET /api/v1/admin/tax/returns/{period}', () => {
  let t: TestApp;
  let rzp: FakeRazorpay;
  let owner: { headers: Record<string, string> };
  beforeAll(async () => {
    rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
    t = await buildTestApp({
      TAX_REGIME: 'gst',
      SELLER_GSTIN,
      GST_LUT_ARN: 'AD290326000123X',
      GST_LUT_VALID_UNTIL: '2099-03-31',
      RAZORPAY_TIMEOUT_MS: '30000',
      ...rzp.env(),
    });
    owner = await loginAs(t, 'owner-tax@example.com', 'admin');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await rzp?.close();
  });
  const get = (url: string, headers?: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers });
  async function pay(who: { headers: Record<string, string> }, body: Record<string, unknown>): Promise<string> {
    const checkout = await openCheckout(t, who, body).catch((err: Error) =>
      /create-order 502/.test(err.message) ? openCheckout(t, who, body) : Promise.reject(err),
    );
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/verify-payment',
      headers: who.headers,
      payload: rzp.pay(checkout),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json().orderId as string;
  }
  async function buyer(email: string, billing: object) {
    const who = await loginAs(t, email);
    const saved = await t.app.inject({ method: 'PUT', url: '/api/v1/invoices/billing-details', headers: who.headers, payload: billing });
    expect(saved.statusCode, saved.body).toBe(200);
    return who;
  }

  it('agrees with the documents of the month: b2b, b2cs, exp, advances, SAC summary, documents issued', async () => {
    // A Karnataka business whose name a spreadsheet would run as a formula; pays both installments.
    const ka = await buyer('tax-ka@example.com', {
      billingName: '=HYPERLINK("http://x")',
      billingAddress: 'Bengaluru',
      country: 'IN',
      stateCode: '29',
      gstin: KA_GSTIN,
    });
    const kaOrder = await pay(ka, { kind: 'advance', currency: 'INR' });
    for (let i = 0; i < 12; i++) await completeNextStage(t.deps, kaOrder, {});
    await pay(ka, { kind: 'remaining', orderId: kaOrder });
    // A Maharashtra consumer pays the advance only: an advance not invoiced by the month's end.
    const mh = await buyer('tax-mh@example.com', { billingName: 'Asha Patil', country: 'IN', stateCode: '27' });
    await pay(mh, { kind: 'advance', currency: 'INR' });
    // A US buyer paying in dollars: an export under the LUT.
    const us = await buyer('tax-us@example.com', { billingName: 'Acme Inc', country: 'US' });
    const usOrder = await pay(us, { kind: 'advance', currency: 'USD' });
    for (let i = 0; i < 12; i++) await completeNextStage(t.deps, usOrder, {});
    await pay(us, { kind: 'remaining', orderId: usOrder });

    const res = await get(`admin/tax/returns/${period}`, owner.headers);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({ period, regime: 'gst', reconciled: true, testDocuments: 0, liveDocuments: 5 });

    const docs = await t.deps.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.testMode, false), eq(invoices.taxRegime, 'gst')));
    const inv = (gstin: string | null, supply: string) =>
      docs.find((d) => d.docKind === 'tax_invoice' && d.buyerGstin === gstin && d.supplyType === supply)!;
    const ka1 = inv(KA_GSTIN, 'intra');
    expect(r.tables.b2b.rows).toEqual([
      expect.objectContaining({
        gstin: KA_GSTIN,
        invoiceNumber: ka1.number,
        placeOfSupply: '29-Karnataka',
        rate: 18,
        taxableValue: ka1.taxableValue,
        invoiceValue: ka1.taxableValue! + ka1.taxAmount,
      }),
    ]);
    expect(r.tables.b2b.rows[0].centralTax + r.tables.b2b.rows[0].stateTax).toBe(ka1.taxAmount);
    expect(r.tables.b2b.rows[0].centralTax).toBe(r.tables.b2b.rows[0].stateTax);
    const us1 = inv(null, 'export');
    expect(r.tables.exp.rows).toEqual([
      expect.objectContaining({
        exportType: 'WOPAY',
        invoiceNumber: us1.number,
        rate: 0,
        taxableValue: us1.inrValue,
        invoiceValue: us1.inrValue,
      }),
    ]);
    // The advance of the Maharashtra consumer: IGST, not invoiced. The others were invoiced in the same month.
    const mhRv = docs.find((d) => d.docKind === 'receipt_voucher' && d.placeOfSupplyCode === '27')!;
    expect(r.tables.at.rows).toEqual([
      {
        placeOfSupply: '27-Maharashtra',
        rate: 18,
        grossAdvance: mhRv.taxableValue,
        integratedTax: mhRv.taxAmount,
        centralTax: 0,
        stateTax: 0,
      },
    ]);
    expect(r.tables.atadj.rows).toEqual([]);
    expect(r.tables.b2cs.rows).toEqual([]);
    expect(r.tables.hsn.totals.taxableValue).toBe(ka1.taxableValue! + us1.inrValue!);
    expect(r.tables.docs.rows).toEqual([
      expect.objectContaining({ nature: 'Invoices for outward supply', totalNumber: 2, cancelled: 0 }),
      expect.objectContaining({ nature: 'Receipt Voucher', totalNumber: 3, cancelled: 0 }),
    ]);

    const csv = await get(`admin/tax/returns/${period}/b2b.csv`, owner.headers);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toContain(`b2b-${period}.csv`);
    const [header, row] = csv.body.trim().split('\r\n');
    expect(header).toBe(
      'GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of ' +
        'Supply,Reverse Charge,Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable ' +
        'Value,Cess Amount',
    );
    expect(row).toContain(`${KA_GSTIN},"'=HYPERLINK(""http://x"")",${ka1.number},`);
    expect(row).toContain(`,${(ka1.taxableValue! / 100).toFixed(2)},`);
    const at = await get(`admin/tax/returns/${period}/at.csv`, owner.headers);
    expect(at.body.split('\r\n')[1]).toBe(`27-Maharashtra,,18,${(mhRv.taxableValue! / 100).toFixed(2)},`);
  }, 240_000);

  it('refuses a bad period or table with 400, and staff or customers with 403', async () => {
    for (const p of ['2026-13', '2026-00', '26-11', '2026-1', '..%2F..%2Fetc', '2026-11%00']) {
      const r = await get(`admin/tax/returns/${p}`, owner.headers);
      expect(r.statusCode, p).toBe(400);
      expect(r.json().message).toMatch(/period/);
    }
    expect((await get(`admin/tax/returns/${period}/secrets.csv`, owner.headers)).statusCode).toBe(400);
    expect((await get(`admin/tax/returns/${period}/..%2Fb2b.csv`, owner.headers)).statusCode).toBe(400);
    const staff = await loginAs(t, 'staff-tax@example.com', 'staff');
    for (const url of [`admin/tax/returns/${period}`, `admin/tax/returns/${period}/b2b.csv`]) {
      const s = await get(url, staff.headers);
      expect(s.statusCode).toBe(403);
      expect(s.body).not.toContain('taxableValue');
    }
    const customer = await loginAs(t, 'cust-tax@example.com');
    expect((await get(`admin/tax/returns/${period}`, customer.headers)).statusCode).toBe(403);
    expect((await get(`admin/tax/returns/${period}`)).statusCode).toBe(401);
  });
});

describe('TAX_REGIME=none', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 120_000);
  afterAll(async () => t?.close());
  it("lists the month's documents and the year's turnover against the registration threshold", async () => {
    const owner = await loginAs(t, 'owner-none@example.com', 'admin');
    const r = await t.app.inject({ method: 'GET', url: `/api/v1/admin/tax/returns/${period}`, headers: owner.headers });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      regime: 'none',
      reconciled: true,
      tables: { documents: { rows: [] }, turnover: { totals: { turnover: 0, threshold: 2_000_000_00 } } },
    });
    const csv = await t.app.inject({ method: 'GET', url: `/api/v1/admin/tax/returns/${period}/b2b.csv`, headers: owner.headers });
    expect(csv.statusCode).toBe(404);
  });
});

// A trial on the built-in test checkout (docs/decisions/334-refund-footer-and-env-example.md): the
// month's documents are all TEST ones; the return says how many it left out and that it has no live
// document, and the overview says how many the year's turnover left out.
describe('TAX_REGIME=gst on the test checkout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ TAX_REGIME: 'gst', SELLER_GSTIN });
  }, 120_000);
  afterAll(async () => t?.close());
  it('says the TEST documents were left out, with their number, and that there is no live document', async () => {
    const owner = await loginAs(t, 'owner-trial@example.com', 'admin');
    const before = await t.app.inject({ method: 'GET', url: `/api/v1/admin/tax/returns/${period}`, headers: owner.headers });
    expect(before.json()).toMatchObject({ regime: 'gst', testDocuments: 0, liveDocuments: 0 });
    for (const email of ['trial-1@example.com', 'trial-2@example.com']) {
      const who = await loginAs(t, email);
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: '/api/v1/invoices/billing-details',
            headers: who.headers,
            payload: { country: 'IN', stateCode: '29' },
          })
        ).statusCode,
      ).toBe(200);
      await payInstallment(t, who, { kind: 'advance', currency: 'INR' });
    }
    const r = await t.app.inject({ method: 'GET', url: `/api/v1/admin/tax/returns/${period}`, headers: owner.headers });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ regime: 'gst', testDocuments: 2, liveDocuments: 0 });
    // Nothing of the TEST documents is in a table.
    for (const name of ['b2b', 'b2cs', 'at']) expect(body.tables[name]?.rows ?? [], name).toEqual([]);
    const overview = await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers });
    expect(overview.json().tax).toMatchObject({ regime: 'gst', turnoverInr: 0, testDocuments: 2 });
  });
});
