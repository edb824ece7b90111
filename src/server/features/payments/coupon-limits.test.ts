import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { holdCouponUse } from '../coupons/coupon-limits.ts';
import { settlePayment } from './settle-payment.ts';

// 8 and 9 (decision 092). On main: both racing customers got the discount and
// redemptions exceeded maxUses; one customer reused a promo on every order; a 100 %-off coupon
// could be created and answered 502 at checkout.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
beforeAll(async () => {
  t = await buildTestApp();
  owner = await loginAs(t, 'coupon.boss@example.com', 'admin');
});
afterAll(() => t.close());

let seq = 0;
const customer = (name: string) => loginAs(t, `${name}.${++seq}@example.com`);
type Customer = Awaited<ReturnType<typeof customer>>;

async function createCoupon(body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/admin/coupons', headers: owner.headers, payload: body });
  return res;
}
const checkout = (c: Customer, couponCode?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/payment/create-order',
    headers: c.headers,
    payload: { kind: 'advance', acceptTerms: true, currency: 'USD', couponCode },
  });
const pay = (providerOrderId: string) => settlePayment(t.deps, { providerOrderId, paymentId: `pay_${providerOrderId}` });
const redemptions = async (code: string) =>
  Number(
    (
      await t.deps.database.query<{ n: number }>(
        'select count(*)::int as n from coupon_redemptions r join coupons c on c.id = r.coupon_id where c.code = $1',
        [code],
      )
    )[0]!.n,
  );
const orderOf = async (providerOrderId: string) =>
  (
    await t.deps.database.query<{
      id: string;
      discount: string;
      total: string;
      advance: string;
      remaining: string;
      withdrawn: Date | null;
    }>(
      `select o.id, o.discount::text, o.total::text, a.amount::text as advance, r.amount::text as remaining, o.coupon_withdrawn_at as withdrawn
         from payment_attempts p join installments i on i.id = p.installment_id join orders o on o.id = i.order_id
         join installments a on a.order_id = o.id and a.kind = 'advance' join installments r on r.order_id = o.id and r.kind = 'remaining'
        where p.provider_order_id = $1`,
      [providerOrderId],
    )
  )[0]!;

describe('max uses under a race (item 1)', () => {
  it('two customers check out at once with the last use: one gets it, the other a clear 400', async () => {
    expect((await createCoupon({ code: 'RACE1', percent: 10, maxUses: 1 })).statusCode).toBe(201);
    const [a, b] = [await customer('race.a'), await customer('race.b')];
    const answers = await Promise.all([checkout(a, 'RACE1'), checkout(b, 'RACE1')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const refused = answers.find((r) => r.statusCode === 400)!;
    expect(refused.json().message).toBe('This code has been used up.');
    const won = answers.find((r) => r.statusCode === 200)!;
    expect((await pay(won.json().id)).outcome).toBe('paid');
    expect(await redemptions('RACE1')).toBe(1);
  });

  it('a payment that arrives after its hold expired and the last use went to someone else pays full price', async () => {
    expect((await createCoupon({ code: 'RACE2', percent: 10, maxUses: 1 })).statusCode).toBe(201);
    const [a, b] = [await customer('late.a'), await customer('late.b')];
    const first = await checkout(a, 'RACE2');
    expect(first.statusCode).toBe(200);
    // A's checkout stays open past its hold (30 minutes).
    await t.deps.database.query(`update orders set coupon_hold_until = now() - interval '1 minute' where user_id = $1`, [a.user.id]);
    const second = await checkout(b, 'RACE2');
    expect(second.statusCode).toBe(200);
    expect((await pay(second.json().id)).outcome).toBe('paid');
    expect((await pay(first.json().id)).outcome).toBe('paid');
    expect(await redemptions('RACE2')).toBe(1);

    const full = (await checkout(await customer('late.c'))).json().quote;
    const late = await orderOf(first.json().id);
    expect(late.withdrawn).not.toBeNull();
    expect(Number(late.discount)).toBe(0);
    expect(Number(late.total)).toBe(full.total);
    expect(Number(late.advance) + Number(late.remaining)).toBe(full.total);
    expect(Number(late.advance)).toBe(first.json().quote.advance);
    const kept = await orderOf(second.json().id);
    expect(kept.withdrawn).toBeNull();
    expect(Number(kept.discount)).toBeGreaterThan(0);
  });

  it("one customer's parallel checkouts with one code: both may start, only one keeps the discount", async () => {
    expect((await createCoupon({ code: 'RACE3', percent: 10, maxUses: 1 })).statusCode).toBe(201);
    const a = await customer('twice');
    const both = await Promise.all([checkout(a, 'RACE3'), checkout(a, 'RACE3')]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    await Promise.all(both.map((r) => pay(r.json().id)));
    expect(await redemptions('RACE3')).toBe(1);
    const orders = await Promise.all(both.map((r) => orderOf(r.json().id)));
    expect(orders.filter((o) => o.withdrawn === null && Number(o.discount) > 0)).toHaveLength(1);
    expect(orders.filter((o) => o.withdrawn !== null && Number(o.discount) === 0)).toHaveLength(1);
  });
});

describe('one live hold per customer and code', () => {
  it('many checkouts by one customer hold one use, not all of them', async () => {
    expect((await createCoupon({ code: 'HOARD2', percent: 10, maxUses: 2, maxUsesPerCustomer: null })).statusCode).toBe(201);
    const [a, b, c] = [await customer('hoard.a'), await customer('hoard.b'), await customer('hoard.c')];
    // On main each of A's checkouts held a use: B was refused "used up" without anything paid.
    const mine = await Promise.all([checkout(a, 'HOARD2'), checkout(a, 'HOARD2'), checkout(a, 'HOARD2'), checkout(b, 'HOARD2')]);
    expect(mine.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const live = await t.deps.database.query<{ n: number }>(
      "select count(*)::int as n from orders o join coupons c on c.id = o.coupon_id where c.code = 'HOARD2' and o.coupon_hold_until > now() and o.user_id = $1",
      [a.user.id],
    );
    expect(live[0]!.n).toBe(1);
    // A and B hold the two uses: a third customer is refused until one of them lets go.
    const third = await checkout(c, 'HOARD2');
    expect(third.statusCode).toBe(400);
    expect(third.json().message).toBe('This code has been used up.');
    // A pays an earlier checkout (its hold moved to the newest): a use is free, so it keeps the code.
    expect((await pay(mine[0]!.json().id)).outcome).toBe('paid');
    expect((await orderOf(mine[0]!.json().id)).withdrawn).toBeNull();
    expect((await pay(mine[3]!.json().id)).outcome).toBe('paid');
    expect(await redemptions('HOARD2')).toBe(2);
    expect((await checkout(c, 'HOARD2')).json().message).toBe('This code has been used up.');
  });

  it('the code is checked again under the lock: switched off or expired since the quote, nothing is held', async () => {
    const created = await createCoupon({ code: 'LOCKED5', percent: 5, maxUses: 5 });
    const id = created.json().coupon.id as string;
    const a = await customer('locked');
    // The quote saw an active code; the checkout's transaction then finds it switched off …
    await t.app.inject({ method: 'POST', url: `/api/v1/admin/coupons/${id}/deactivate`, headers: owner.headers });
    await expect(t.deps.db.transaction((tx) => holdCouponUse(tx, id, a.user.id))).rejects.toThrow('This code is no longer active.');
    // … or past its end.
    await t.deps.database.query("update coupons set active = true, valid_until = now() + interval '1 hour' where id = $1", [id]);
    await expect(t.deps.db.transaction((tx) => holdCouponUse(tx, id, a.user.id, new Date(Date.now() + 2 * 3600_000)))).rejects.toThrow(
      /This code expired on/,
    );
    await t.deps.database.query("update coupons set valid_from = now() + interval '1 day', valid_until = null where id = $1", [id]);
    await expect(t.deps.db.transaction((tx) => holdCouponUse(tx, id, a.user.id))).rejects.toThrow(/This code is valid from/);
    await t.deps.database.query('update coupons set valid_from = null where id = $1', [id]);
    expect(await t.deps.db.transaction((tx) => holdCouponUse(tx, id, a.user.id))).toBeInstanceOf(Date);
  });
});

describe('uses per customer (item 9)', () => {
  it('defaults to one use per customer; the back office can allow more or no limit', async () => {
    const created = await createCoupon({ code: 'ONCE9', percent: 5 });
    expect(created.statusCode).toBe(201);
    expect(created.json().coupon.maxUsesPerCustomer).toBe(1);
    const a = await customer('promo');
    expect((await pay((await checkout(a, 'ONCE9')).json().id)).outcome).toBe('paid');
    const again = await checkout(a, 'ONCE9');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('You have already used this code.');
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/v1/coupon/verifyCoupon',
      headers: a.headers,
      payload: { coupon_code: 'ONCE9' },
    });
    expect(verify.json()).toMatchObject({ success: false, message: 'You have already used this code.' });
    // Another customer still can.
    expect((await checkout(await customer('promo.other'), 'ONCE9')).statusCode).toBe(200);

    const id = created.json().coupon.id as string;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/coupons/${id}`,
      headers: owner.headers,
      payload: { maxUsesPerCustomer: 2 },
    });
    expect(patched.json().coupon.maxUsesPerCustomer).toBe(2);
    expect((await pay((await checkout(a, 'ONCE9')).json().id)).outcome).toBe('paid');
    expect((await checkout(a, 'ONCE9')).json().message).toBe('You have already used this code 2 times, the most allowed per customer.');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/coupons/${id}`,
      headers: owner.headers,
      payload: { maxUsesPerCustomer: null },
    });
    expect((await checkout(a, 'ONCE9')).statusCode).toBe(200);
  });
});

describe('100 %-off coupons (item 8)', () => {
  it('the back office refuses 100 %; one that exists answers a clear 400 at checkout', async () => {
    const refused = await createCoupon({ code: 'FREE100', percent: 100 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('1 to 99');
    // One created before this rule (the database still allows it).
    await t.deps.database.query(`insert into coupons (code, kind, percent) values ('OLDFREE', 'promo', 100)`);
    const a = await customer('free');
    const res = await checkout(a, 'OLDFREE');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This code cannot be used for an online payment. Please contact us.');
  });
});
