import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { quote } from '../../../domain/pricing.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { cashback, installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';

// The whole money path against a local Razorpay fake over real HTTP, with real HMAC signatures.
let t: TestApp;
let rzp: FakeRazorpay;
type Login = Awaited<ReturnType<typeof loginAs>>;
let referrer: Login;
let buyer: Login;
let stranger: Login;
let owner: Login;
let payer: Login;

const post = (url: string, who: Login | null, payload?: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: who?.headers, payload: payload as object });
const get = (url: string, who: Login | null) => t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: who?.headers });

async function referralCode(who: Login) {
  const r = await get(`coupon/getCouponsByUserId/${who.user.id}`, who);
  return r.json().coupons[0].coupon_code as string;
}

async function payAdvance(who: Login, body: Record<string, unknown> = {}) {
  const created = await post('payment/create-order', who, { kind: 'advance', acceptTerms: true, ...body });
  expect(created.statusCode, created.body).toBe(200);
  const paid = rzp.pay(created.json().id);
  const verified = await post('payment/verify-payment', who, paid);
  expect(verified.statusCode, verified.body).toBe(200);
  return { created: created.json(), paid, orderId: verified.json().orderId as string };
}

beforeAll(async () => {
  rzp = await startFakeRazorpay();
  t = await buildTestApp({
    ...rzp.env(),
    RAZORPAY_TIMEOUT_MS: '300',
  });
  referrer = await loginAs(t, 'referrer@example.com');
  buyer = await loginAs(t, 'buyer@example.com');
  stranger = await loginAs(t, 'stranger@example.com');
  owner = await loginAs(t, 'founder@example.com', 'admin');
  payer = await loginAs(t, 'payer@example.com');
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});
beforeEach(() => {
  rzp.mode = 'ok';
});

describe('coupons', () => {
  it('says the seeded FIRSTWEB25 promotion has expired', async () => {
    const r = await post('coupon/verifyCoupon', buyer, { coupon_code: 'firstweb25' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ success: false, discount_percent: 0, message: 'This code expired on January 31, 2025.' });
  });

  it('refuses unknown and inactive codes', async () => {
    expect((await post('coupon/verifyCoupon', buyer, { coupon_code: 'NOPE123' })).json()).toMatchObject({
      success: false,
      discount_percent: 0,
    });
    await t.deps.database.query(`insert into coupons (code, kind, percent, active) values ('OFFNOW', 'promo', 10, false)`);
    expect((await post('coupon/verifyCoupon', buyer, { coupon_code: 'OFFNOW' })).json()).toMatchObject({
      success: false,
      message: 'This code is no longer active.',
    });
  });

  it('gives each user one referral code, first in their list, and nobody else sees it', async () => {
    const code = await referralCode(referrer);
    expect(code).toMatch(/^REF[A-Z2-9]{8}$/);
    expect(await referralCode(referrer)).toBe(code);
    expect((await get(`coupon/getCouponsByUserId/${referrer.user.id}`, buyer)).statusCode).toBe(404);
    expect((await get(`coupon/getCouponsByUserId/${referrer.user.id}`, null)).statusCode).toBe(401);
  });

  it("accepts someone else's referral code at 5% and refuses one's own", async () => {
    const code = await referralCode(referrer);
    expect((await post('coupon/verifyCoupon', buyer, { coupon_code: code })).json()).toMatchObject({
      success: true,
      discount_percent: 5,
      kind: 'referral',
    });
    expect((await post('coupon/verifyCoupon', referrer, { coupon_code: code })).json()).toMatchObject({
      success: false,
      message: 'You cannot use your own referral code.',
    });
  });

  it('refuses malformed input with 400', async () => {
    expect((await post('coupon/verifyCoupon', buyer, { coupon_code: ['A', 'B'] })).statusCode).toBe(400);
    expect((await post('coupon/verifyCoupon', buyer, { coupon_code: 'x'.repeat(41) })).statusCode).toBe(400);
    expect((await post('coupon/verifyCoupon', buyer, {})).statusCode).toBe(400);
  });
});

describe('create-order refuses tampering', () => {
  it('refuses an amount that is not the quote, in major units', async () => {
    const q = quote(findCurrency('USD')!, 0);
    const r = await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, amount: 1 });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/amount does not match/);
    const ok = await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, amount: q.advance / 100, currency: 'USD' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ amount: q.advance, currency: 'USD', status: 'created', provider: 'razorpay', key: rzp.keyId });
    expect(rzp.orders.get(ok.json().id)).toMatchObject({
      amount: q.advance,
      currency: 'USD',
      receipt: expect.stringMatching(/^ORD[A-Z2-9]{10}-A$/),
    });
  });

  it('refuses an unknown currency and a USD amount sent as INR', async () => {
    expect((await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, currency: 'XYZ' })).statusCode).toBe(400);
    const usd = quote(findCurrency('USD')!, 0);
    expect(
      (await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, currency: 'INR', amount: usd.advance / 100 }))
        .statusCode,
    ).toBe(400);
    const inr = await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, currency: 'inr' });
    expect(inr.json()).toMatchObject({ currency: 'INR', amount: quote(findCurrency('INR')!, 0).advance });
  });

  it('refuses an expired, unknown or own code instead of silently charging full price', async () => {
    expect(
      (await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, couponCode: 'FIRSTWEB25' })).json().message,
    ).toMatch(/expired/);
    expect((await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, couponCode: 'BOGUS99' })).statusCode).toBe(400);
    const own = await post('payment/create-order', referrer, {
      kind: 'advance',
      acceptTerms: true,
      couponCode: await referralCode(referrer),
    });
    expect(own.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    expect((await post('payment/create-order', null, { kind: 'advance', acceptTerms: true })).statusCode).toBe(401);
  });

  it('answers a clear 502 when the provider is down, writes nothing, and a retry works', async () => {
    const before = (await t.deps.db.select().from(orders)).length;
    rzp.mode = 'down';
    const down = await post('payment/create-order', stranger, { kind: 'advance', acceptTerms: true });
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toMatch(/try again/);
    expect(down.body).not.toContain(rzp.keySecret);
    rzp.mode = 'slow';
    rzp.slowMs = 1000;
    expect((await post('payment/create-order', stranger, { kind: 'advance', acceptTerms: true })).statusCode).toBe(502);
    expect((await t.deps.db.select().from(orders)).length).toBe(before);
    rzp.mode = 'ok';
    expect((await post('payment/create-order', stranger, { kind: 'advance', acceptTerms: true })).statusCode).toBe(200);
  });
});

describe('the whole money path', () => {
  it('advance with a referral code → order, tracker, remaining → delivery, cashback earned', async () => {
    const code = await referralCode(referrer);
    const usd = findCurrency('USD')!;
    const q = quote(usd, 5);
    const { created, orderId } = await payAdvance(buyer, { couponCode: code.toLowerCase(), amount: q.advance / 100 });
    expect(created.quote).toMatchObject({ discount: q.discount, total: q.total, advance: q.advance });

    // order/createOrder is idempotent and ignores client totals.
    const c1 = await post('order/createOrder', buyer, { totalAmountOrder: 1, discount: 99, razorpay_order_id: created.id });
    const c2 = await post('order/createOrder', buyer, { totalAmountOrder: 5 });
    expect(c1.json().order).toMatchObject({ order_id: orderId, total: q.total, advance_status: 'Paid', remaining_status: 'Due' });
    expect(c2.json().order.order_id).toBe(orderId);

    const list = (await get('order/getAllOrders/user', buyer)).json().orders;
    expect(list).toEqual([
      expect.objectContaining({
        order_id: orderId,
        advance_status: 'Paid',
        remaining_status: 'Due',
        completed_steps: 0,
        coupon_code: code,
      }),
    ]);
    expect((await get('order/getAllOrders/user', stranger)).json().orders.some((o: { order_id: string }) => o.order_id === orderId)).toBe(
      false,
    );

    let status = (await get(`status/getStatus/order/${orderId}`, buyer)).json();
    // Spec §4: completed_steps is the index of the last completed stage — 0 after the advance ('1/15').
    expect(status).toMatchObject({ completed_steps: 0, remainingAmount: q.remaining / 100, deliveryUrl: null });
    expect(status.statuses).toHaveLength(15);
    expect(status.statuses[0]).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC$/); // customer dates say their zone
    expect(status.statuses[1]).toBe('To be completed');
    // The same times as ISO instants, for screens to format (docs/decisions/335-one-rule-for-times.md).
    expect(status.completedAt).toHaveLength(15);
    expect(new Date(status.completedAt[0]).toISOString()).toBe(status.completedAt[0]);
    expect(status.completedAt[1]).toBeNull();
    expect(new Date(list[0].createdAt).toISOString()).toBe(list[0].createdAt);

    const [cb] = await t.deps.db.select().from(cashback).where(eq(cashback.referrerUserId, referrer.user.id));
    expect(cb).toMatchObject({ amount: q.discount, currency: 'USD', state: 'pending' });

    // Stages 2..13 through the service; 14 is the payment's.
    for (let s = 2; s <= 13; s++)
      await completeNextStage(t.deps, orderId, {
        note: s === 13 ? 'Ready to launch' : null,
        actorUserId: owner.user.id,
        deliveryUrl: s === 13 ? 'https://site.example.com' : undefined,
      });
    await expect(completeNextStage(t.deps, orderId, { note: null })).rejects.toThrow(/remaining payment/);
    status = (await get(`status/getStatus/order/${orderId}`, buyer)).json();
    expect(status).toMatchObject({ completed_steps: 12, deliveryUrl: null });
    expect(status.notes[12]).toBe('Ready to launch');

    // Nobody else can pay or read this order.
    expect((await post('payment/create-order', stranger, { kind: 'remaining', orderId })).statusCode).toBe(404);
    expect((await get(`status/getStatus/order/${orderId}`, stranger)).statusCode).toBe(404);
    expect((await get(`status/getStatusDates/order/${orderId}`, stranger)).statusCode).toBe(404);
    // One code per order: none at the remaining.
    expect((await post('payment/create-order', buyer, { kind: 'remaining', orderId, couponCode: 'FIRSTWEB25' })).statusCode).toBe(400);
    expect((await post('payment/create-order', buyer, { kind: 'remaining', orderId, amount: 1 })).statusCode).toBe(400);

    const rem = await post('payment/create-order', buyer, { kind: 'remaining', orderId, amount: q.remaining / 100 });
    expect(rem.json()).toMatchObject({ amount: q.remaining, kind: 'remaining', orderId });
    const paid = rzp.pay(rem.json().id);
    expect((await post('payment/verify-payment', buyer, paid)).json()).toMatchObject({ status: 'ok', kind: 'remaining', orderId });

    status = (await get(`status/getStatus/order/${orderId}`, buyer)).json();
    expect(status).toMatchObject({
      completed_steps: 14,
      remainingAmount: 0,
      deliveryUrl: 'https://site.example.com',
      remaining: { state: 'paid' },
    });
    const dates = (await get(`status/getStatusDates/order/${orderId}`, buyer)).json();
    expect(dates.dates[13]).toMatchObject({ stage: 14, name: 'Remaining Payment', completedAt: expect.any(String) });
    expect((await get('order/getAllOrders/user', buyer)).json().orders[0]).toMatchObject({ remaining_status: 'Paid' });

    // Paying the remaining twice.
    expect((await post('payment/create-order', buyer, { kind: 'remaining', orderId })).statusCode).toBe(409);

    const summary = (await get('referral/summary', referrer)).json();
    expect(summary).toMatchObject({ code, totals: [{ currency: 'USD', pending: 0, earned: q.discount, paid: 0 }] });

    // Receipts and the delivery mail (with the site's link) went through the outbox at once; the
    // founder's stages became notices for the batched mail, not a mail each (decision 155).
    const mails = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'buyer@example.com'));
    expect(mails.filter((m) => m.template === 'payment-receipt')).toHaveLength(2);
    const delivered = mails.filter((m) => m.template === 'order-delivered');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.textBody).toContain('https://site.example.com');
    expect(mails.filter((m) => m.template === 'order-stage')).toEqual([]);
  });

  it('refuses a forged, replayed-elsewhere or foreign checkout signature; a replay of its own is harmless', async () => {
    const a = await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true });
    const b = await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true });
    const paidB = rzp.pay(b.json().id);
    // B's signature presented for A.
    const crossed = await post('payment/verify-payment', buyer, { ...paidB, razorpay_order_id: a.json().id });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().message).toBe('Payment verification failed');
    const forged = await post('payment/verify-payment', buyer, { ...paidB, razorpay_signature: 'ab'.repeat(32) });
    expect(forged.statusCode).toBe(400);
    expect((await post('payment/verify-payment', buyer, { ...paidB, razorpay_signature: 'not-hex' })).statusCode).toBe(400);
    // Another customer cannot verify it (no leak that it exists).
    expect((await post('payment/verify-payment', stranger, paidB)).statusCode).toBe(404);
    const first = await post('payment/verify-payment', buyer, paidB);
    const again = await post('payment/verify-payment', buyer, paidB);
    expect(first.json()).toEqual(again.json());
    const [adv] = await t.deps.db
      .select({ state: installments.state })
      .from(installments)
      .innerJoin(orders, eq(orders.id, installments.orderId))
      .where(eq(orders.publicId, first.json().orderId));
    expect(adv).toBeDefined();
    const receipts = await t.deps.database.query<{ n: number }>(
      `select count(*)::int as n from mail_outbox where template = 'payment-receipt' and subject like $1`,
      [`%${first.json().orderId}%`],
    );
    expect(receipts[0]!.n).toBe(1);
  });

  it('refuses the remaining before the advance is paid', async () => {
    const a = await post('payment/create-order', stranger, { kind: 'advance', acceptTerms: true });
    const [draft] = await t.deps.db
      .select({ publicId: orders.publicId })
      .from(paymentAttempts)
      .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
      .innerJoin(orders, eq(orders.id, installments.orderId))
      .where(eq(paymentAttempts.providerOrderId, a.json().id));
    const r = await post('payment/create-order', stranger, { kind: 'remaining', orderId: draft!.publicId });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe('Pay the advance first.');
    // Drafts are invisible on status too.
    expect((await get(`status/getStatus/order/${draft!.publicId}`, stranger)).statusCode).toBe(404);
  });
});

describe('webhook', () => {
  const hook = (h: { body: string; headers: Record<string, string> }) =>
    t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: h.headers, payload: h.body });

  it('refuses a bad signature and a body changed after signing', async () => {
    const created = await post('payment/create-order', payer, { kind: 'advance', acceptTerms: true });
    const p = rzp.pay(created.json().id);
    const h = rzp.webhook('payment.captured', {
      id: p.razorpay_payment_id,
      order_id: created.json().id,
      amount: created.json().amount,
      currency: 'USD',
      status: 'captured',
    });
    expect((await hook({ ...h, headers: { ...h.headers, 'x-razorpay-signature': 'ff'.repeat(32) } })).statusCode).toBe(401);
    expect((await hook({ ...h, body: h.body.replace('"captured"', '"captured" ') })).statusCode).toBe(401);
    expect((await hook({ ...h, headers: { ...h.headers, 'x-razorpay-signature': '' } })).statusCode).toBe(401);
  });

  it('settles once, deduplicates event ids, and never moves backwards on out-of-order events', async () => {
    const created = await post('payment/create-order', payer, { kind: 'advance', acceptTerms: true });
    const orderId = created.json().id;
    const p = rzp.pay(orderId);
    const entity = { id: p.razorpay_payment_id, order_id: orderId, amount: created.json().amount, currency: 'USD', status: 'captured' };
    const captured = rzp.webhook('payment.captured', entity, 'evt_one');
    expect((await hook(captured)).json()).toEqual({ status: 'processed' });
    expect((await hook(captured)).json()).toEqual({ status: 'duplicate' });
    // A late failure event for the same order does not undo the payment.
    expect((await hook(rzp.webhook('payment.failed', { ...entity, status: 'failed' }, 'evt_two'))).json()).toEqual({ status: 'ignored' });
    expect((await hook(rzp.webhook('order.paid', entity, 'evt_three'))).json()).toEqual({ status: 'ignored' });
    const [row] = await t.deps.db
      .select({ state: paymentAttempts.state })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.providerOrderId, orderId));
    expect(row!.state).toBe('paid');
    // The browser callback that arrives after the webhook still succeeds.
    expect((await post('payment/verify-payment', payer, p)).statusCode).toBe(200);
  });

  it('does not settle a payment whose amount differs from the order', async () => {
    const created = await post('payment/create-order', payer, { kind: 'advance', acceptTerms: true });
    const h = rzp.webhook('payment.captured', {
      id: 'pay_x',
      order_id: created.json().id,
      amount: 100,
      currency: 'USD',
      status: 'captured',
    });
    expect((await hook(h)).json()).toEqual({ status: 'ignored' });
  });

  it('refuses a non-JSON signed body with 400', async () => {
    const body = 'not json';
    const { createHmac } = await import('node:crypto');
    const sig = createHmac('sha256', rzp.webhookSecret).update(body).digest('hex');
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': sig, 'x-razorpay-event-id': 'evt_bad' },
      payload: body,
    });
    expect(r.statusCode).toBe(400);
  });
});

describe('reconciliation', () => {
  it('settles a payment whose browser never came back, and the admin can trigger it', async () => {
    const created = await post('payment/create-order', stranger, { kind: 'advance', acceptTerms: true });
    rzp.pay(created.json().id);
    expect((await post('payment/reconcile', stranger)).statusCode).toBe(403);
    rzp.mode = 'down';
    const failed = await post('payment/reconcile', owner);
    expect(failed.json().paid).toBe(0);
    rzp.mode = 'ok';
    const r = await post('payment/reconcile', owner);
    expect(r.json().paid).toBeGreaterThanOrEqual(1);
    const orders = (await get('order/getAllOrders/user', stranger)).json().orders;
    expect(orders.length).toBeGreaterThanOrEqual(1);
  });
});

describe('races and edges', () => {
  it('settles once when the checkout callback and the webhook arrive together', async () => {
    const who = await loginAs(t, 'racer@example.com');
    const created = (await post('payment/create-order', who, { kind: 'advance', acceptTerms: true })).json();
    const p = rzp.pay(created.id);
    const h = rzp.webhook('payment.captured', {
      id: p.razorpay_payment_id,
      order_id: created.id,
      amount: created.amount,
      currency: 'USD',
      status: 'captured',
    });
    const [v, w] = await Promise.all([
      post('payment/verify-payment', who, p),
      t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: h.headers, payload: h.body }),
    ]);
    expect(v.statusCode).toBe(200);
    expect(w.statusCode).toBe(200);
    const receipts = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'racer@example.com'));
    expect(receipts.filter((m) => m.template === 'payment-receipt')).toHaveLength(1);
    expect(receipts.find((m) => m.template === 'payment-receipt')!.textBody).toContain('$183.00');
    const stages = await t.deps.database.query<{ n: number }>(
      `select count(*)::int as n from order_stages s join orders o on o.id = s.order_id where o.public_id = $1`,
      [v.json().orderId],
    );
    expect(stages[0]!.n).toBe(1);
  });

  it('asks for a session on every customer route', async () => {
    for (const [method, url] of [
      ['POST', 'pricing/quote'],
      ['POST', 'payment/create-order'],
      ['POST', 'payment/verify-payment'],
      ['POST', 'order/createOrder'],
      ['GET', 'order/getAllOrders/user'],
      ['GET', 'status/getStatus/order/ORDX'],
      ['GET', 'status/getStatusDates/order/ORDX'],
      ['POST', 'coupon/verifyCoupon'],
      ['GET', 'referral/summary'],
      ['POST', 'tracker/order/ORDX/complete-next-stage'],
    ] as const) {
      const r = await t.app.inject({ method, url: `/api/v1/${url}`, payload: method === 'POST' ? {} : undefined });
      expect(r.statusCode, url).toBe(401);
    }
  });

  it('answers 4xx, never 5xx, to hostile input', async () => {
    expect((await get(`status/getStatus/order/${'A'.repeat(41)}`, buyer)).statusCode).toBe(400);
    expect((await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, amount: -5 })).statusCode).toBe(400);
    expect((await post('payment/create-order', buyer, { kind: 'everything' })).statusCode).toBe(400);
    expect((await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true, amount: '183' })).statusCode).toBe(400);
    expect((await post('payment/verify-payment', buyer, { razorpay_order_id: 'x' })).statusCode).toBe(400);
    expect((await post('order/createOrder', stranger, { razorpay_order_id: 'order_nope' })).statusCode).toBe(404);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook',
      headers: { 'content-type': 'application/json' },
      payload: 'x'.repeat(70 * 1024),
    });
    expect(big.statusCode).toBe(413);
  });

  it('lists the money routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const path of [
      '/api/v1/payment/create-order',
      '/api/v1/payment/verify-payment',
      '/api/v1/payment/webhook',
      '/api/v1/order/createOrder',
      '/api/v1/order/getAllOrders/user',
      '/api/v1/status/getStatus/order/{id}',
      '/api/v1/status/getStatusDates/order/{id}',
      '/api/v1/coupon/verifyCoupon',
      '/api/v1/coupon/getCouponsByUserId/{userId}',
    ]) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
  });
});
