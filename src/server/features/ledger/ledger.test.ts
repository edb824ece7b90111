import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { difference, ledgerTotalsSql, orderChargeLines, totalsOf, type LineInput } from './lines.ts';
import type { LedgerKind } from '../../../contract/statement.ts';

// The order's account (docs/decisions/320-order-ledger.md): the lines each money event writes, the
// statement's totals, and the one SQL form of those totals agreeing with totalsOf.

const KINDS: LedgerKind[] = ['charge', 'discount', 'tax', 'payment', 'refund', 'credit_note'];

describe('ledger rules', () => {
  it('totals: charged includes discounts and tax; the balance is charged − paid + refunded − credited', () => {
    const t = totalsOf([
      { kind: 'charge', amount: 10_000 },
      { kind: 'discount', amount: -1_000 },
      { kind: 'tax', amount: 1_620 },
      { kind: 'payment', amount: -2_000 },
      { kind: 'refund', amount: 500 },
      { kind: 'credit_note', amount: -500 },
    ]);
    expect(t).toEqual({ charged: 10_620, tax: 1_620, paid: 2_000, refunded: 500, credited: 500, balanceDue: 8_620 });
  });

  it("the order's charge lines add up to its total, prices with or without tax", () => {
    const taxes = [
      { kind: 'CGST' as const, rate: 9, amount: 701_490 },
      { kind: 'SGST' as const, rate: 9, amount: 701_490 },
    ];
    const base = { listPrice: 8_491_500, price: 7_641_500, discountPercent: 0, discount: 0, couponCode: null, fee: 152_830 };
    const tax = {
      regime: 'gst' as const,
      rate: 18,
      pricesIncludeTax: false,
      sellerStateCode: '29',
      lutValid: false,
      supplyType: 'intra' as const,
      placeOfSupply: { code: '29', name: 'Karnataka' },
      taxableValue: 7_794_330,
      taxes,
      buyer: { country: 'IN', stateCode: '29', gstin: null },
    };
    const lines = orderChargeLines({ ...base, total: 9_197_310, tax }, 'Custom website');
    expect(lines.map((l) => [l.kind, l.description, l.amount])).toEqual([
      ['charge', 'Custom website', 8_491_500],
      ['discount', 'Offer price reduction', -850_000],
      ['charge', 'Platform fee', 152_830],
      ['tax', 'CGST @ 9 %', 701_490],
      ['tax', 'SGST @ 9 %', 701_490],
    ]);
    expect(totalsOf(lines).charged).toBe(9_197_310);
    // Prices that include the tax: one line takes it out, the total is still the quote.
    const inside = orderChargeLines(
      {
        ...base,
        total: 7_794_330,
        tax: { ...tax, pricesIncludeTax: true, taxableValue: 6_605_364, taxes: [{ kind: 'IGST', rate: 18, amount: 1_188_966 }] },
      },
      'Custom website',
    );
    expect(totalsOf(inside).charged).toBe(7_794_330);
    expect(inside.find((l) => l.description === 'Tax included in the prices above')?.amount).toBe(-1_188_966);
  });

  it('a re-priced order is corrected by the differences only', () => {
    const before: LineInput[] = [
      { kind: 'charge', description: 'Website', amount: 100 },
      { kind: 'discount', description: 'Discount (code X, 20%)', amount: -20 },
      { kind: 'charge', description: 'Platform fee', amount: 2 },
    ];
    const after: LineInput[] = [
      { kind: 'charge', description: 'Website', amount: 100 },
      { kind: 'charge', description: 'Platform fee', amount: 3 },
    ];
    expect(difference(after, before)).toEqual([
      { kind: 'charge', description: 'Platform fee', amount: 1 },
      { kind: 'discount', description: 'Discount (code X, 20%)', amount: 20 },
    ]);
    expect(difference(after, [...before, ...difference(after, before)])).toEqual([]);
  });
});

describe('the order account through the API', { timeout: 180_000 }, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  const statement = async (who: { headers: Record<string, string> }, orderId: string, admin = false) => {
    const r = await t.app.inject({
      method: 'GET',
      url: `/api/v1/${admin ? 'admin/' : ''}orders/${orderId}/statement`,
      headers: who.headers,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  };

  it('the advance posts the order and its payment; the remaining settles the balance; lists show the same figures', async () => {
    const me = await loginAs(t, 'ledger-a@example.com');
    const orderId = await payInstallment(t, me, { kind: 'advance', currency: 'INR' });
    const s1 = await statement(me, orderId);
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/order/getAllOrders/user', headers: me.headers })).json().orders;
    const row = list.find((o: { order_id: string }) => o.order_id === orderId);
    expect(s1.totals.paid).toBe(row.advance.amount);
    expect(s1.totals.charged).toBe(row.total);
    expect(s1.totals.balanceDue).toBe(row.remaining.amount);
    expect(row.balanceDue).toBe(s1.totals.balanceDue);
    expect(s1.lines.map((l: { kind: string }) => l.kind)).toEqual(['charge', 'discount', 'charge', 'payment']);
    expect(s1.lines.at(-1).documentNumber).toMatch(/^TEST\//);
    for (let i = 0; i < 12; i++) await completeNextStage(t.deps, orderId, {});
    await payInstallment(t, me, { kind: 'remaining', orderId });
    const s2 = await statement(me, orderId);
    expect(s2.totals).toMatchObject({ charged: s1.totals.charged, paid: s1.totals.charged, balanceDue: 0 });
    // The back office reads the same statement; another customer gets a 404.
    const owner = await loginAs(t, 'ledger-owner@example.com', 'admin');
    expect(await statement(owner, orderId, true)).toEqual(s2);
    const other = await loginAs(t, 'ledger-b@example.com');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/statement`, headers: other.headers })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/statement.pdf`, headers: other.headers })).statusCode).toBe(
      404,
    );
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/statement.pdf`, headers: me.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // Lines are never changed.
    await expect(t.deps.database.query(`update order_ledger set amount = 0`)).rejects.toThrow(/append-only/);
    await expect(t.deps.database.query(`delete from order_ledger`)).rejects.toThrow(/append-only/);
  });

  it('the SQL totals agree with totalsOf on random lines', async () => {
    const me = await loginAs(t, 'ledger-c@example.com');
    const orderId = await payInstallment(t, me, { kind: 'advance', currency: 'INR' });
    const [order] = await t.deps.database.query<{ id: string }>(`select id from orders where public_id = $1`, [orderId]);
    let seed = 7;
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 40; i++) {
      const kind = KINDS[Math.floor(rnd() * KINDS.length)]!;
      await t.deps.database.query(
        `insert into order_ledger (order_id, at, kind, description, amount, currency, source, line_no) values ($1, now(), $2, 'x', $3, 'INR', 'test', $4)`,
        [order!.id, kind, Math.round((rnd() - 0.5) * 1_000_000), i],
      );
    }
    const lines = await t.deps.database.query<{ kind: LedgerKind; amount: string }>(
      `select kind, amount from order_ledger where order_id = $1`,
      [order!.id],
    );
    const [sqlTotals] = await t.deps.database.query<{ charged: number; balance_due: number }>(
      `select t.* from ${ledgerTotalsSql('$1')} t`,
      [order!.id],
    );
    const expected = totalsOf(lines.map((l) => ({ kind: l.kind, amount: Number(l.amount) })));
    expect({ charged: Number(sqlTotals!.charged), balanceDue: Number(sqlTotals!.balance_due) }).toEqual({
      charged: expected.charged,
      balanceDue: expected.balanceDue,
    });
  });
});
