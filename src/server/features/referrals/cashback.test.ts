import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { seedPaidOrder, seedRemainingPayment } from '../../../../tests/fixtures/paid-orders.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
let referrer: Awaited<ReturnType<typeof loginAs>>;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loginAs(t, 'founder@example.com', 'admin');
  referrer = await loginAs(t, 'friend@example.com');
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin/${url}`, headers: owner.headers, payload });

describe('cashback ledger', () => {
  it('lists cashback per referrer, refuses to pay pending cashback, pays earned cashback with a reference', async () => {
    const bought = await seedPaidOrder(t, 'referred@example.com', { referrerUserId: referrer.user.id });
    let ledger = (await call('GET', 'cashback')).json();
    expect(ledger.referrers).toHaveLength(1);
    const entry = ledger.referrers[0].entries[0];
    expect(ledger.referrers[0]).toMatchObject({
      email: 'friend@example.com',
      pending: [{ currency: entry.currency, amount: entry.amount }],
      earned: [],
    });
    expect(entry).toMatchObject({ orderId: bought.orderId, buyerEmail: 'referred@example.com', state: 'pending' });
    expect(entry.amount).toBeGreaterThan(0);

    const early = await call('POST', `cashback/${entry.id}/paid`, { payoutReference: 'UPI-1' });
    expect(early.statusCode).toBe(409);

    await seedRemainingPayment(t, bought.customer, bought.orderId);
    ledger = (await call('GET', 'cashback?state=earned')).json();
    expect(ledger.referrers[0].entries[0].state).toBe('earned');
    const owed = (await call('GET', 'overview')).json().cashbackOwed;
    expect(owed).toEqual([{ currency: entry.currency, amountMinor: entry.amount }]);

    expect((await call('POST', `cashback/${entry.id}/paid`, { payoutReference: '  ' })).statusCode).toBe(400);
    expect((await call('POST', `cashback/${entry.id}/paid`, { payoutReference: 'x'.repeat(201) })).statusCode).toBe(400);
    const paid = await call('POST', `cashback/${entry.id}/paid`, { payoutReference: 'UPI-REF-42 <b>' });
    expect(paid.json().entry).toMatchObject({ state: 'paid', payoutReference: 'UPI-REF-42 <b>', paidAt: expect.any(String) });
    expect((await call('POST', `cashback/${entry.id}/paid`, { payoutReference: 'again' })).statusCode).toBe(409);
    expect((await call('GET', 'overview')).json().cashbackOwed).toEqual([]);

    const audit = (await call('GET', `audit?entity=cashback&entityId=${entry.id}`)).json();
    expect(audit.items[0]).toMatchObject({
      action: 'cashback.pay',
      before: { state: 'earned' },
      after: { state: 'paid', payoutReference: 'UPI-REF-42 <b>' },
    });
    expect((await call('POST', 'cashback/7d1f3a0e-0000-4000-8000-000000000000/paid', { payoutReference: 'x' })).statusCode).toBe(404);
  });

  it('feeds the overview: revenue per day by currency, orders by stage, referral uses', async () => {
    const o = (await call('GET', 'overview')).json();
    expect(o.days).toHaveLength(30);
    // Paid on the built-in test checkout: no money moved, so the revenue leaves it out and says so
    // (docs/decisions/320-order-ledger.md; ledger-walk.test.ts charts live money).
    expect(o.revenue).toEqual([]);
    expect(o.moneyMoved.testLeftOut.payments).toBeGreaterThan(0);
    expect(o.moneyMoved.testLeftOut.perCurrency[0].received).toBeGreaterThan(0);
    // Paid in full early: stage 14 waits until the founder finishes stage 13.
    expect(o.ordersByStage.find((s: { stage: number }) => s.stage === 1).count).toBe(1);
    const coupons = (await call('GET', 'coupons')).json();
    expect(coupons.referrals.find((r: { ownerEmail: string }) => r.ownerEmail === 'friend@example.com').uses).toBe(1);
  });
});
