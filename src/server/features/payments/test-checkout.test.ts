import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { completeNextStage, undoLastStage } from '../tracker/complete-next-stage.ts';

// No Razorpay keys: the built-in test checkout, same flow and same signature check.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    REFERRAL_VALID_UNTIL: '2026-01-31T23:59:59Z',
    CURRENCY_TABLE: JSON.stringify([
      { code: 'INR', symbol: '₹', factor: 85, minorDigits: 2 },
      { code: 'JPY', symbol: '¥', factor: 150, minorDigits: 0 },
    ]),
  });
});
afterAll(async () => t?.close());

const form = (action: string) => ({ 'content-type': 'application/x-www-form-urlencoded', payload: `action=${action}` });

describe('built-in test checkout', () => {
  it('labels the page test mode, signs like Razorpay and verifies through verify-payment', async () => {
    const me = await loginAs(t, 'tester@example.com');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/create-order',
      headers: me.headers,
      payload: { kind: 'advance', acceptTerms: true },
    });
    expect(created.json()).toMatchObject({ provider: 'test', currency: 'INR', amount: 1558800 });
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/payment/test-checkout/${created.json().id}` });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('TEST MODE');
    expect(page.body).toContain('₹15,588.00');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payment/test-checkout/${created.json().id}`,
      headers: { 'content-type': form('cancel')['content-type'] },
      payload: form('cancel').payload,
    });
    expect(cancel.headers.location).toBe('/pay?cancelled=1');
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payment/test-checkout/${created.json().id}`,
      headers: { 'content-type': form('pay')['content-type'] },
      payload: form('pay').payload,
    });
    expect(paid.statusCode).toBe(303);
    const back = new URL(paid.headers.location as string, 'http://x');
    const fields = Object.fromEntries(back.searchParams);
    expect(Object.keys(fields).sort()).toEqual(['razorpay_order_id', 'razorpay_payment_id', 'razorpay_signature']);
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/verify-payment',
      headers: me.headers,
      payload: { ...fields, razorpay_payment_id: 'pay_test_other' },
    });
    expect(tampered.statusCode).toBe(400);
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/payment/verify-payment', headers: me.headers, payload: fields });
    expect(ok.json()).toMatchObject({ status: 'ok', kind: 'advance' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/payment/test-checkout/order_test_unknown' })).statusCode).toBe(404);

    // Back to the page after paying: it says the payment is complete and links the
    // order; no Pay is offered, and a stale page's Pay leads to the order without a second charge.
    const again = await t.app.inject({ method: 'GET', url: `/api/v1/payment/test-checkout/${created.json().id}` });
    expect(again.body).toContain('Payment complete');
    expect(again.body).toContain(`href="/status/${ok.json().orderId}"`);
    expect(again.body).not.toContain('value="pay"');
    const stale = await t.app.inject({
      method: 'POST',
      url: `/api/v1/payment/test-checkout/${created.json().id}`,
      headers: { 'content-type': form('pay')['content-type'] },
      payload: form('pay').payload,
    });
    expect(stale.statusCode).toBe(303);
    expect(stale.headers.location).toBe(`/status/${ok.json().orderId}`);
    // It looks like the site: the site's font stack and its icon (no request for a missing /favicon.ico).
    expect(page.body).toContain("font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;");
    expect(page.body).toContain('<link rel="icon" href="/favicon.svg"');

    // The tracker service: in order, payment stages untouchable, undo.
    const id = ok.json().orderId as string;
    await expect(undoLastStage(t.deps, id)).rejects.toThrow(/cannot be undone/);
    expect((await completeNextStage(t.deps, id, { note: 'Kick-off call booked' })).completedSteps).toBe(2);
    expect((await undoLastStage(t.deps, id)).completedSteps).toBe(1);
    await expect(completeNextStage(t.deps, 'ORDNOPE', {})).rejects.toThrow(/not found/i);
    await expect(completeNextStage(t.deps, id, { deliveryUrl: 'javascript:alert(1)' })).rejects.toThrow(/http/);
    const admin = await loginAs(t, 'boss@example.com', 'admin');
    const viaApi = await t.app.inject({
      method: 'POST',
      url: `/api/v1/tracker/order/${id}/complete-next-stage`,
      headers: admin.headers,
      payload: { note: 'UI call done' },
    });
    expect(viaApi.json()).toMatchObject({ completed_steps: 1 }); // index of the last completed stage
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/tracker/order/${id}/complete-next-stage`, headers: me.headers, payload: {} }))
        .statusCode,
    ).toBe(403);
  });

  it('answers "ended" for referral codes after the configured end date, and uses the configured currencies', async () => {
    const owner = await loginAs(t, 'owner@example.com');
    const other = await loginAs(t, 'other@example.com');
    const code = (
      await t.app.inject({ method: 'GET', url: `/api/v1/coupon/getCouponsByUserId/${owner.user.id}`, headers: owner.headers })
    ).json().coupons[0].coupon_code;
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/coupon/verifyCoupon',
      headers: other.headers,
      payload: { coupon_code: code },
    });
    expect(r.json()).toMatchObject({ success: false, message: 'The referral programme ended on January 31, 2026.' });
    await t.deps.database.query(`update coupons set active = false where code = $1`, [code]);
    const inactive = await t.app.inject({
      method: 'POST',
      url: '/api/v1/coupon/verifyCoupon',
      headers: other.headers,
      payload: { coupon_code: code },
    });
    expect(inactive.json()).toMatchObject({ success: false, message: 'This code is no longer active.' });
    // Exactly one code per order: a list of codes is malformed input.
    const two = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/create-order',
      headers: other.headers,
      payload: { kind: 'advance', acceptTerms: true, couponCode: [code, 'FIRSTWEB25'] },
    });
    expect(two.statusCode).toBe(400);
    const cur = (await t.app.inject({ method: 'GET', url: '/api/v1/pricing/currencies?country=in' })).json();
    expect(cur).toMatchObject({ defaultCurrency: 'INR', suggestedCurrency: 'INR' });
    expect(cur.currencies.map((c: { code: string }) => c.code)).toEqual(['INR', 'JPY']);
    const q = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pricing/quote',
      headers: other.headers,
      payload: { currency: 'JPY', couponCode: 'FIRSTWEB25' },
    });
    expect(q.json()).toMatchObject({
      symbol: '¥',
      coupon: null,
      couponError: expect.stringMatching(/expired/),
      quote: { price: 134850, fee: 2697, total: 137547, advance: 27509 },
    });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/pricing/quote', headers: other.headers, payload: { currency: 'USD' } }))
        .statusCode,
    ).toBe(400);
    // No webhook secret configured: the route does not exist for callers.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/payment/webhook',
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses a malformed currency table at start-up, naming the variable', async () => {
    const { loadConfig } = await import('../../config.ts');
    expect(() => loadConfig({ CURRENCY_TABLE: '[{"code":"usd"}]' })).toThrow(/CURRENCY_TABLE/);
    expect(() => loadConfig({ REFERRAL_VALID_UNTIL: 'someday' })).toThrow(/REFERRAL_VALID_UNTIL/);
  });
});
