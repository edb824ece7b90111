import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { openCheckout } from '../../../../tests/helpers/test-checkout.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { financialYear } from '../../../domain/invoice-number.ts';
import { LUT_ENDORSEMENT, gstinCheckCharacter, rupeesInWords, takeOutTax } from '../../../domain/gst.ts';
import { formatMoney } from '../../../domain/money.ts';
import { loadConfig } from '../../config.ts';

// GST documents end to end through the API (docs/decisions/220-gst-tax-rules.md, 221-gst-documents.md):
// three buyers pay both installments with a live Razorpay key (the fake speaks its protocol); the
// receipt vouchers and tax invoices, read back with pdftotext, agree with the quotes to the paisa.

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const FY = financialYear(new Date());
const SELLER_GSTIN = '29AAGCB7383J1Z4';
const withCheck = (first14: string) => first14 + gstinCheckCharacter(first14);
const KA_GSTIN = withCheck('29AAPFU0939F1Z');
const GST_ENV = {
  SELLER_LEGAL_NAME: 'Example Web Studio Pvt Ltd',
  SELLER_ADDRESS: '12 Test Road, Bengaluru 560001',
  TAX_REGIME: 'gst',
  SELLER_GSTIN,
  GST_LUT_ARN: 'AD290326000123X',
  GST_LUT_VALID_UNTIL: '2099-03-31',
  // The first checkout of a cold, shared test machine can be slow to answer.
  RAZORPAY_TIMEOUT_MS: '30000',
};

type Who = { headers: Record<string, string> };

/**
 * create-order, retried once after a 502: on this slow shared machine the fake's idle keep-alive
 * socket is sometimes closed just as the next create-order reuses it ("fetch failed"), and the
 * server answers that nothing was charged — what a customer's second click would do.
 */
const checkoutOnce = (t: TestApp, who: Who, body: Record<string, unknown>) =>
  openCheckout(t, who, body).catch((err: Error) =>
    /create-order 502/.test(err.message) ? openCheckout(t, who, body) : Promise.reject(err),
  );
interface TaxLine {
  kind: string;
  rate: number;
  amount: number;
}
interface Quote {
  currency: string;
  taxableValue: number;
  taxes: TaxLine[];
  supplyType: string;
  placeOfSupply: { code: string; name: string };
  total: number;
  advance: number;
  remaining: number;
  /** The quote answer's lines (the one description of the price). */
  lines: { key: string; label: string; amount: number }[];
}

describe('configuration', () => {
  it('stops on a wrong value, naming the variable', () => {
    expect(() => loadConfig({ TAX_REGIME: 'vat' })).toThrow(/TAX_REGIME/);
    expect(() => loadConfig({ TAX_REGIME: 'gst' })).toThrow(/SELLER_GSTIN: required/);
    expect(() => loadConfig({ TAX_REGIME: 'gst', SELLER_GSTIN: '29AAGCB7383J1Z5' })).toThrow(/SELLER_GSTIN/);
    expect(() => loadConfig({ TAX_REGIME: 'gst', SELLER_GSTIN, SELLER_STATE_CODE: '27' })).toThrow(/SELLER_STATE_CODE/);
    expect(() => loadConfig({ GST_RATE: 'eighteen' })).toThrow(/GST_RATE/);
    expect(() => loadConfig({ GST_RATE: '40' })).toThrow(/GST_RATE/);
    expect(() => loadConfig({ GST_SAC: '12345' })).toThrow(/GST_SAC/);
    expect(() => loadConfig({ GST_LUT_ARN: 'AD290326000123X' })).toThrow(/GST_LUT_VALID_UNTIL/);
    expect(() => loadConfig({ GST_LUT_ARN: 'AD290326000123X', GST_LUT_VALID_UNTIL: '31/03/2027' })).toThrow(/GST_LUT_VALID_UNTIL/);
    expect(() => loadConfig({ PRICES_INCLUDE_TAX: 'yes' })).toThrow(/PRICES_INCLUDE_TAX/);
    expect(() => loadConfig({ GST_REGISTRATION_THRESHOLD: '-5' })).toThrow(/GST_REGISTRATION_THRESHOLD/);
    const c = loadConfig({ TAX_REGIME: 'gst', SELLER_GSTIN });
    expect(c).toMatchObject({
      SELLER_STATE_CODE: '29',
      GST_RATE: 18,
      GST_SAC: '998314',
      PRICES_INCLUDE_TAX: false,
      GST_REGISTRATION_THRESHOLD: 2_000_000,
    });
    expect(loadConfig({}).TAX_REGIME).toBe('none');
  });
});

describe('GST documents', { timeout: 180_000 }, () => {
  let t: TestApp;
  let rzp: FakeRazorpay;
  beforeAll(async () => {
    rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
    t = await buildTestApp({ ...GST_ENV, ...rzp.env() });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await rzp?.close();
  });
  const get = (url: string, headers?: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers });
  const putBilling = (who: Who, payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/invoices/billing-details', headers: who.headers, payload });
  const quoteFor = async (who: Who, payload: object): Promise<Quote> => {
    const r = await t.app.inject({ method: 'POST', url: '/api/v1/pricing/quote', headers: who.headers, payload });
    expect(r.statusCode, r.body).toBe(200);
    return { ...r.json().quote, lines: r.json().lines } as Quote;
  };
  async function pay(who: Who, body: Record<string, unknown>): Promise<string> {
    const fields = rzp.pay(await checkoutOnce(t, who, body));
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/payment/verify-payment', headers: who.headers, payload: fields });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json().orderId as string;
  }
  async function documentsOf(who: Who, orderId: string) {
    const list = (await get(`invoices/order/${orderId}`, who.headers)).json().invoices as { id: string; number: string; kind: string }[];
    return Promise.all(list.map(async (d) => ({ ...d, text: pdfText((await get(`invoices/${d.id}/pdf`, who.headers)).rawPayload) })));
  }
  async function payBoth(who: Who, currency: string, q: Quote) {
    const orderId = await pay(who, { kind: 'advance', currency });
    for (let i = 0; i < 12; i++) await completeNextStage(t.deps, orderId, {});
    await pay(who, { kind: 'remaining', orderId });
    const docs = await documentsOf(who, orderId);
    expect(docs.map((d) => d.kind)).toEqual(['receipt_voucher', 'tax_invoice']);
    const [rv, inv] = docs as [(typeof docs)[0], (typeof docs)[0]];
    expect(rv.number).toMatch(new RegExp(`^RV/${escapeRe(FY)}/\\d{4}$`));
    expect(inv.number).toMatch(new RegExp(`^INV/${escapeRe(FY)}/\\d{4}$`));
    expect(q.advance + q.remaining).toBe(q.total);
    return { orderId, rv, inv };
  }
  const line = (label: string, amount: string) => new RegExp(`${escapeRe(label)}\\s+${escapeRe(amount)}`);

  it('a Karnataka business (GSTIN): CGST + SGST on the receipt voucher and the tax invoice, to the paisa', async () => {
    const me = await loginAs(t, 'gst-karnataka@example.com');
    const saved = await putBilling(me, {
      billingName: 'Bengaluru Traders LLP',
      billingAddress: '5 Residency Road, Bengaluru',
      country: 'IN',
      stateCode: '29',
      gstin: KA_GSTIN,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().billing).toMatchObject({ country: 'IN', stateCode: '29', gstin: KA_GSTIN });
    const q = await quoteFor(me, { currency: 'INR' });
    expect(q).toMatchObject({
      taxableValue: 7_794_330,
      total: 9_197_310,
      advance: 1_839_400,
      remaining: 7_357_910,
      supplyType: 'intra',
      placeOfSupply: { code: '29', name: 'Karnataka' },
    });
    expect(q.taxes).toEqual([
      { kind: 'CGST', rate: 9, amount: 701_490 },
      { kind: 'SGST', rate: 9, amount: 701_490 },
    ]);
    const { orderId, rv, inv } = await payBoth(me, 'INR', q);
    const inr = (m: number) => formatMoney(m, { symbol: '₹', minorDigits: 2 });

    // Receipt voucher (rule 50): the tax inside the advance, the place of supply, both GSTINs.
    const adv = takeOutTax(q.advance, [
      { kind: 'CGST', rate: 9 },
      { kind: 'SGST', rate: 9 },
    ]);
    for (const s of [
      'RECEIPT VOUCHER',
      `GSTIN: ${SELLER_GSTIN}`,
      `GSTIN: ${KA_GSTIN}`,
      'Place of supply: Karnataka (29)',
      'SAC 998314',
      'reverse charge: No',
      'Authorised signatory',
    ])
      expect(rv.text).toContain(s);
    expect(rv.text).toMatch(line('Value of the advance before tax', inr(adv.taxableValue)));
    expect(rv.text).toMatch(line('CGST @ 9 %', inr(adv.taxes[0]!.amount)));
    expect(rv.text).toMatch(line('SGST @ 9 %', inr(adv.taxes[1]!.amount)));
    expect(rv.text).toMatch(line('Amount of advance received', inr(q.advance)));
    expect(adv.taxableValue + adv.taxes[0]!.amount + adv.taxes[1]!.amount).toBe(q.advance);
    expect(rv.text).toContain(rupeesInWords(q.advance));

    // The quote, the receipt voucher and the invoice show the same lines in the same words (decision 333).
    expect(q.lines.map((l) => l.key)).toEqual(['list_price', 'offer_reduction', 'platform_fee', 'taxable_value', 'tax', 'tax', 'total']);
    for (const l of q.lines) {
      const label = l.key === 'list_price' ? `${l.label} — order` : l.label;
      const amount = l.amount < 0 ? `-${inr(-l.amount)}` : inr(l.amount);
      for (const doc of [rv, inv])
        expect(doc.text.replace(/\s+/g, ' '), l.label).toMatch(l.key === 'list_price' ? new RegExp(escapeRe(label)) : line(label, amount));
    }
    // The back office's order page (its Price card) shows the same lines; its supply names the order.
    const owner = await loginAs(t, 'gst-owner-lines@example.com', 'admin');
    const detail = await get(`admin/orders/${orderId}`, owner.headers);
    expect(detail.statusCode, detail.body).toBe(200);
    const adminLines = detail.json().order.lines as Quote['lines'];
    expect(adminLines.map(({ key, amount }) => ({ key, amount }))).toEqual(q.lines.map(({ key, amount }) => ({ key, amount })));
    expect(adminLines.slice(1).map((l) => l.label)).toEqual(q.lines.slice(1).map((l) => l.label));
    expect(adminLines[0]!.label).toBe(`Custom website — order ${orderId}`);

    // Tax invoice (rule 46): the whole supply, less the advance.
    for (const s of ['TAX INVOICE', `GSTIN: ${KA_GSTIN}`, 'Place of supply: Karnataka (29)', 'Authorised signatory'])
      expect(inv.text).toContain(s);
    expect(inv.text).toMatch(line('Taxable value', inr(7_794_330)));
    expect(inv.text).toMatch(line('CGST @ 9 %', inr(701_490)));
    expect(inv.text).toMatch(line('SGST @ 9 %', inr(701_490)));
    expect(inv.text).toMatch(line('Order total', inr(q.total)));
    expect(inv.text).toMatch(new RegExp(`Less: advance received, ${escapeRe(rv.number)} .*-${escapeRe(inr(q.advance))}`));
    expect(inv.text).toMatch(line('Balance paid now', inr(q.remaining)));
    expect(inv.text).toContain(rupeesInWords(q.remaining));
    expect(inv.text).not.toContain('IGST');

    // The columns the monthly return reads agree with the printed figures.
    const rows = await t.deps.db.select().from(invoices).where(eq(invoices.number, inv.number));
    expect(rows[0]).toMatchObject({
      docKind: 'tax_invoice',
      taxRegime: 'gst',
      supplyType: 'intra',
      placeOfSupplyCode: '29',
      buyerGstin: KA_GSTIN,
      taxableValue: 7_794_330,
      taxAmount: 1_402_980,
      amount: q.remaining,
      testMode: false,
    });
    expect(rows[0]!.adjustsInvoiceId).not.toBeNull();
  });

  it('a Maharashtra consumer: IGST 18 %', async () => {
    const me = await loginAs(t, 'gst-maharashtra@example.com');
    expect((await putBilling(me, { country: 'IN', stateCode: '27' })).statusCode).toBe(200);
    const q = await quoteFor(me, { currency: 'INR' });
    expect(q).toMatchObject({
      supplyType: 'inter',
      placeOfSupply: { code: '27', name: 'Maharashtra' },
      total: 9_197_309,
      taxes: [{ kind: 'IGST', rate: 18, amount: 1_402_979 }],
    });
    const { rv, inv } = await payBoth(me, 'INR', q);
    const inr = (m: number) => formatMoney(m, { symbol: '₹', minorDigits: 2 });
    const adv = takeOutTax(q.advance, [{ kind: 'IGST', rate: 18 }]);
    expect(rv.text).toContain('Place of supply: Maharashtra (27)');
    expect(rv.text).toMatch(line('IGST @ 18 %', inr(adv.taxes[0]!.amount)));
    expect(inv.text).toMatch(line('IGST @ 18 %', inr(1_402_979)));
    expect(inv.text).toMatch(line('Balance paid now', inr(q.remaining)));
    expect(inv.text).not.toMatch(/CGST|SGST/);
  });

  it('a US buyer paying in USD: a zero-rated export under the LUT, with its INR value', async () => {
    const me = await loginAs(t, 'gst-us@example.com');
    expect((await putBilling(me, { country: 'US', billingName: 'Acme Inc.' })).statusCode).toBe(200);
    const q = await quoteFor(me, { currency: 'USD' });
    expect(q).toMatchObject({
      supplyType: 'export',
      placeOfSupply: { code: '96', name: 'Other Countries' },
      taxes: [],
      taxableValue: 91_698,
      total: 91_698,
    });
    const { rv, inv } = await payBoth(me, 'USD', q);
    for (const d of [rv, inv]) {
      expect(d.text.replace(/\s+/g, ' ')).toContain(LUT_ENDORSEMENT);
      expect(d.text).toContain('LUT ARN AD290326000123X');
      expect(d.text).toContain('Country of the recipient: United States');
      expect(d.text).not.toMatch(/IGST @|CGST|SGST/);
    }
    // INR value at the CURRENCY_TABLE rate (85 per USD by default), with the rate's date.
    expect(inv.text).toMatch(/Value in INR: ₹77,943\.30 at ₹85\.0000 per USD \(CURRENCY_TABLE rate of \d\d \w{3} \d{4}\)/);
    expect(inv.text).toMatch(line('Balance paid now', formatMoney(q.remaining, { symbol: '$', minorDigits: 2 })));
  });

  it('the order keeps the quote it was created with, whatever the client sends or the billing says later', async () => {
    const me = await loginAs(t, 'gst-mover@example.com');
    expect((await putBilling(me, { country: 'IN', stateCode: '29' })).statusCode).toBe(200);
    // Tax amounts and rates sent by the client are ignored.
    const q = await quoteFor(me, {
      currency: 'INR',
      taxes: [{ kind: 'IGST', rate: 0, amount: 0 }],
      total: 1,
      taxableValue: 1,
      supplyType: 'export',
    });
    expect(q).toMatchObject({ supplyType: 'intra', total: 9_197_310 });
    const checkout = await checkoutOnce(t, me, { kind: 'advance', currency: 'INR', taxes: [], total: 100 });
    // The buyer says they moved abroad between the quote and the payment.
    expect((await putBilling(me, { country: 'US' })).statusCode).toBe(200);
    const fields = rzp.pay(checkout);
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/payment/verify-payment', headers: me.headers, payload: fields });
    expect(verified.statusCode, verified.body).toBe(200);
    const [rv] = await documentsOf(me, verified.json().orderId as string);
    expect(rv!.text).toContain('Place of supply: Karnataka (29)');
    expect(rv!.text).toContain('CGST @ 9 %');
  });

  it("an advance refunded before the work: a refund voucher for the receipt voucher, from the back office's refund action", async () => {
    const me = await loginAs(t, 'gst-refund@example.com');
    expect((await putBilling(me, { country: 'IN', stateCode: '27' })).statusCode).toBe(200);
    const q = await quoteFor(me, { currency: 'INR' });
    const fields = rzp.pay(await checkoutOnce(t, me, { kind: 'advance', currency: 'INR' }));
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/payment/verify-payment', headers: me.headers, payload: fields });
    const orderId = verified.json().orderId as string;
    const admin = await loginAs(t, 'gst-founder@example.com', 'admin');
    const refund = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/orders/${orderId}/refunds`,
        headers: admin.headers,
        payload: { providerPaymentId: fields.razorpay_payment_id },
      });
    const r = await refund();
    expect(r.statusCode, r.body).toBe(200);
    expect((await refund()).statusCode).toBe(409); // a second click returns nothing twice
    // The voucher is issued when Razorpay says the money moved (docs/decisions/321-cancel-and-refund.md).
    expect(await documentsOf(me, orderId)).toHaveLength(1);
    const processed = rzp.processRefund(rzp.refunds.find((x) => x.payment_id === fields.razorpay_payment_id)!.id);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: processed.headers, payload: processed.body })).json(),
    ).toMatchObject({ status: 'processed' });
    const docs = await documentsOf(me, orderId);
    expect(docs.map((d) => d.kind)).toEqual(['receipt_voucher', 'refund_voucher']);
    const rf = docs[1]!;
    expect(rf.number).toMatch(new RegExp(`^RF/${escapeRe(FY)}/0001$`));
    const inr = (m: number) => formatMoney(m, { symbol: '₹', minorDigits: 2 });
    const back = takeOutTax(q.advance, [{ kind: 'IGST', rate: 18 }]);
    expect(rf.text).toContain('REFUND VOUCHER');
    expect(rf.text.replace(/\s+/g, ' ')).toContain(`received by receipt voucher ${docs[0]!.number}`);
    expect(rf.text).toMatch(line('IGST @ 18 %', inr(back.taxes[0]!.amount)));
    expect(rf.text).toMatch(line('Amount refunded', inr(q.advance)));
    // The footer names the refund's own reference and date, and the payment it returns (decision 334).
    const refundId = rzp.refunds.find((x) => x.payment_id === fields.razorpay_payment_id)!.id;
    const footer = rf.text.replace(/\s+/g, ' ');
    expect(footer).toMatch(new RegExp(`Refund reference ${escapeRe(refundId)}, refunded \\d{2} \\w{3} \\d{4}\\.`));
    expect(footer).toMatch(
      new RegExp(
        `It returns payment ${escapeRe(fields.razorpay_payment_id)}, received \\d{2} \\w{3} \\d{4} \\(${escapeRe(docs[0]!.number)}\\)`,
      ),
    );
    expect(footer).not.toContain('Payment id');
  });

  it('refuses bad billing details with 400 naming the field', async () => {
    const me = await loginAs(t, 'gst-attacker@example.com');
    const cases: [object, RegExp][] = [
      [{ country: 'IN', stateCode: '29', gstin: KA_GSTIN.slice(0, 14) + (KA_GSTIN[14] === 'A' ? 'B' : 'A') }, /gstin.*check character/],
      [{ country: 'IN', stateCode: '29', gstin: KA_GSTIN.toLowerCase() }, /gstin.*capital/],
      [{ country: 'IN', stateCode: '27', gstin: KA_GSTIN }, /gstin.*state/],
      [{ country: 'IN', stateCode: '29', gstin: KA_GSTIN.slice(0, 14) }, /gstin.*15 characters/],
      [{ country: 'IN', stateCode: '29', gstin: `${KA_GSTIN}X` }, /gstin.*15 characters/],
      [{ country: 'US', stateCode: '29' }, /stateCode.*India only/],
      [{ country: 'IN' }, /stateCode.*required/],
      [{ country: 'IN', stateCode: '28' }, /stateCode/],
      [{ country: 'XX' }, /country/],
      [{ country: 'India' }, /country/],
    ];
    for (const [payload, message] of cases) {
      const r = await putBilling(me, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.body, JSON.stringify(payload)).toMatch(message);
    }
  });
});

describe('not registered: the overview counts the turnover against the threshold', { timeout: 180_000 }, () => {
  let t: TestApp;
  let rzp: FakeRazorpay;
  beforeAll(async () => {
    rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
    // ₹20,000 threshold: one advance of ₹15,588 is 77 %, a second one passes 80 %.
    t = await buildTestApp({ GST_REGISTRATION_THRESHOLD: '20000', RAZORPAY_TIMEOUT_MS: '30000', ...rzp.env() });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await rzp?.close();
  });

  it('warns from 80 %, to the owner only', async () => {
    const owner = await loginAs(t, 'gst-owner@example.com', 'admin');
    const overview = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers })).json().tax;
    expect(await overview()).toMatchObject({
      regime: 'none',
      turnoverInr: 0,
      thresholdInr: 2_000_000,
      percent: 0,
      thresholdWarning: false,
      lutMissing: false,
    });
    for (const [i, expected] of [
      [1, { turnoverInr: 1_558_800, percent: 77, thresholdWarning: false }],
      [2, { turnoverInr: 3_117_600, percent: 155, thresholdWarning: true }],
    ] as const) {
      const buyer = await loginAs(t, `gst-small-${i}@example.com`);
      const fields = rzp.pay(await checkoutOnce(t, buyer, { kind: 'advance', currency: 'INR' }));
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/v1/payment/verify-payment', headers: buyer.headers, payload: fields })).statusCode,
      ).toBe(200);
      expect(await overview()).toMatchObject(expected);
    }
  });
});
