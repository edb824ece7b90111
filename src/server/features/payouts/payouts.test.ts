import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { openCheckout } from '../../../../tests/helpers/test-checkout.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { insertOrder } from '../../../../tests/fixtures/maintenance-orders.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { PAYOUTS_CSV_HEADER } from './payouts-csv.ts';
import { localMonth, previousMonth } from './months.ts';

// Razorpay's payouts reconciled with the app (docs/decisions/323-razorpay-settlements.md): the fake
// Razorpay settles a month of the app's live payments, a maintenance charge and a refund, less its
// fees and the GST on them, plus a payment the app never took and an adjustment; one of the app's
// payments is never settled. The owner's page and CSV show each payout with its lines matched to
// the orders, the one line unknown here and the one payment not settled after 5 days; reading twice
// stores nothing twice; the daily job is stored once a day and retried when Razorpay fails.

vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

const TZ = 'Asia/Kolkata';
/** A month wholly in the past, whatever today is: its payments are all more than 5 days old. */
const MONTH = localMonth(new Date(Date.now() - 40 * 86_400_000), TZ);
/** The month before, for the paging test. */
const EARLIER = previousMonth(MONTH);
/** 10:00 in India on `day` of `month`. */
const onDay = (month: string, day: number, hour = 10) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, day, hour - 5, 30));
};

type Who = Awaited<ReturnType<typeof loginAs>>;

describe('payouts from Razorpay (live key)', () => {
  let t: TestApp;
  let rzp: FakeRazorpay;
  let owner: Who;
  const orders: Record<'a' | 'b' | 'plan', string> = { a: '', b: '', plan: '' };
  const payments: Record<'advance' | 'remaining' | 'unsettled' | 'testMode' | 'plan', string> = {
    advance: '',
    remaining: '',
    unsettled: '',
    testMode: '',
    plan: '',
  };

  const get = (url: string, who?: Who) => t.app.inject({ method: 'GET', url: `/api/v1/admin/${url}`, headers: who?.headers });
  const sync = (who: Who, month?: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/admin/payouts/sync${month ? `?month=${month}` : ''}`, headers: who.headers });
  const count = async (table: string) => (await t.deps.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;

  /** Pays an installment through the API and Razorpay's checkout; returns the order's public id and the payment id. */
  async function pay(who: Who, body: Record<string, unknown>) {
    const providerOrderId = await openCheckout(t, who, body);
    const fields = rzp.pay(providerOrderId);
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/payment/verify-payment', headers: who.headers, payload: fields });
    expect(verified.statusCode, verified.body).toBe(200);
    return { orderId: verified.json().orderId as string, paymentId: fields.razorpay_payment_id };
  }
  /** The payment was taken on `at` (the test's month is in the past). */
  async function paidOn(paymentId: string, at: Date) {
    await t.deps.database.query('update payment_attempts set paid_at = $2 where provider_payment_id = $1', [paymentId, at]);
    await t.deps.database.query('update installments set paid_at = $2 where provider_payment_id = $1', [paymentId, at]);
  }

  beforeAll(async () => {
    rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
    t = await buildTestApp({ ...rzp.env(), RAZORPAY_TIMEOUT_MS: '30000' });
    owner = await loginAs(t, 'payouts.owner@example.com', 'admin');

    // Customer A pays both installments; B pays the advance, which Razorpay never settles.
    const a = await loginAs(t, 'payouts.a@example.com');
    const advance = await pay(a, { kind: 'advance', currency: 'INR' });
    for (let i = 0; i < 12; i++) await completeNextStage(t.deps, advance.orderId, {});
    const remaining = await pay(a, { kind: 'remaining', orderId: advance.orderId });
    const b = await loginAs(t, 'payouts.b@example.com');
    const unsettled = await pay(b, { kind: 'advance', currency: 'INR' });
    // C paid with a test key: never "not settled".
    const c = await loginAs(t, 'payouts.c@example.com');
    const testMode = await pay(c, { kind: 'advance', currency: 'INR' });
    await t.deps.database.query('update payment_attempts set test_mode = true where provider_payment_id = $1', [testMode.paymentId]);
    for (const [p, day] of [
      [advance, 2],
      [remaining, 3],
      [unsettled, 4],
      [testMode, 4],
    ] as const)
      await paidOn(p.paymentId, onDay(MONTH, day));
    Object.assign(orders, { a: advance.orderId, b: unsettled.orderId });
    Object.assign(payments, {
      advance: advance.paymentId,
      remaining: remaining.paymentId,
      unsettled: unsettled.paymentId,
      testMode: testMode.paymentId,
    });

    // A delivered order's maintenance plan is charged once through Razorpay Subscriptions.
    const planOwner = await loginAs(t, 'payouts.plan@example.com');
    const planOrder = await insertOrder(t.deps.db, planOwner.user.id, 'delivered', 'INR', 400);
    const subscribed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${planOrder.publicId}/maintenance/subscribe`,
      headers: planOwner.headers,
      payload: { acceptTerms: true },
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const charge = rzp.chargeSubscription(subscribed.json().subscriptionId);
    const verified = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${planOrder.publicId}/maintenance/verify`,
      headers: planOwner.headers,
      payload: charge.checkout,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const charged = rzp.subscriptionWebhook('subscription.charged', subscribed.json().subscriptionId, { payment: charge.payment });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: charged.headers, payload: charged.body })).json(),
    ).toEqual({ status: 'processed' });
    Object.assign(orders, { plan: planOrder.publicId });
    payments.plan = charge.payment.id;

    // Part of A's advance was refunded through Razorpay (the refunds feature records it).
    const [order] = await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orders.a]);
    await t.deps.database.query(
      `insert into payment_refunds (order_id, provider, provider_payment_id, provider_refund_id, amount, currency, status, origin, processed_at)
       values ($1, 'razorpay', $2, 'rfnd_payoutsKnown1', 5000, 'INR', 'processed', 'manual', $3)`,
      [order!.id, payments.advance, onDay(MONTH, 5)],
    );
  });
  afterAll(async () => {
    await t?.close();
    await rzp?.close();
  });

  // Razorpay's fee is 2 % plus 18 % GST on it; `fee` includes the GST, `tax` is the GST.
  const feeOf = (amount: number) => {
    const fee = Math.round(amount * 0.02);
    const tax = Math.round(fee * 0.18);
    return { fee: fee + tax, tax };
  };
  let amounts: Record<string, number>;
  let first: ReturnType<FakeRazorpay['settle']>;
  let second: ReturnType<FakeRazorpay['settle']>;

  it('reads a month of Razorpay settlements and shows each payout with its lines matched to the orders', async () => {
    const rows = await t.deps.database.query<{ id: string; amount: number }>(
      `select provider_payment_id as id, amount::float8 as amount from payment_attempts where provider_payment_id = any($1::text[])
       union all select provider_payment_id, amount::float8 from maintenance_charges where provider_payment_id = $2`,
      [[payments.advance, payments.remaining], payments.plan],
    );
    amounts = Object.fromEntries(rows.map((r) => [r.id, r.amount]));
    first = rzp.settle(onDay(MONTH, 6), [
      {
        entityId: payments.advance,
        type: 'payment',
        amount: amounts[payments.advance]!,
        ...feeOf(amounts[payments.advance]!),
        orderId: 'order_rzpA',
      },
      {
        entityId: payments.remaining,
        type: 'payment',
        amount: amounts[payments.remaining]!,
        ...feeOf(amounts[payments.remaining]!),
        orderId: 'order_rzpA2',
      },
      {
        entityId: payments.plan,
        type: 'payment',
        amount: amounts[payments.plan]!,
        ...feeOf(amounts[payments.plan]!),
        orderId: 'order_rzpPlan',
      },
      { entityId: 'rfnd_payoutsKnown1', type: 'refund', amount: 5000, paymentId: payments.advance, orderId: 'order_rzpA' },
    ]);
    // A payment the app never took (made in Razorpay's dashboard), and Razorpay's own adjustment;
    // the UTR is text a spreadsheet would run as a formula.
    second = rzp.settle(
      onDay(MONTH, 13),
      [
        { entityId: 'pay_payoutsStranger', type: 'payment', amount: 250_000, ...feeOf(250_000), orderId: 'order_rzpStranger' },
        { entityId: 'adj_payoutsFix1', type: 'adjustment', amount: 1_200 },
      ],
      { utr: '=HYPERLINK("http://x")' },
    );
    // A settlement of another month is not this month's.
    rzp.settle(onDay(EARLIER, 20), [{ entityId: 'pay_payoutsEarlier', type: 'payment', amount: 10_000, ...feeOf(10_000) }]);

    const res = await sync(owner, MONTH);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ settlements: 2, items: 6 });
    // Basic auth with the key, Razorpay's paths.
    const reads = rzp.requests.filter((r) => r.path.startsWith('/v1/settlements'));
    expect(reads.map((r) => r.path)).toEqual(['/v1/settlements', '/v1/settlements/recon/combined']);
    expect(reads.every((r) => r.authorized)).toBe(true);

    const page = await get(`payouts?month=${MONTH}`, owner);
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json();
    expect(Object.keys(body).sort()).toEqual(['payouts', 'totals', 'unknownAtProvider', 'unsettled']);
    const line = (paymentId: string, orderId: string | null, amount: number, type: 'payment' | 'refund' | 'adjustment' = 'payment') => ({
      type,
      paymentId,
      orderId,
      amount,
      ...(type === 'payment' ? feeOf(amount) : { fee: 0, tax: 0 }),
    });
    expect(body.payouts).toEqual([
      {
        id: first.id,
        utr: first.utr,
        amount: first.amount,
        fees: first.fees,
        tax: first.tax,
        settledAt: onDay(MONTH, 6).toISOString(),
        items: expect.arrayContaining([
          line(payments.advance, orders.a, amounts[payments.advance]!),
          line(payments.remaining, orders.a, amounts[payments.remaining]!),
          line(payments.plan, orders.plan, amounts[payments.plan]!),
          line(payments.advance, orders.a, 5000, 'refund'),
        ]),
      },
      {
        id: second.id,
        utr: '=HYPERLINK("http://x")',
        amount: second.amount,
        fees: second.fees,
        tax: second.tax,
        settledAt: onDay(MONTH, 13).toISOString(),
        items: [
          line('pay_payoutsStranger', null, 250_000),
          { type: 'adjustment', paymentId: null, orderId: null, amount: 1_200, fee: 0, tax: 0 },
        ],
      },
    ]);
    expect(body.payouts[0].items).toHaveLength(4);
    // The payout is the payments less the refund, the fees and the GST on them.
    const paid = amounts[payments.advance]! + amounts[payments.remaining]! + amounts[payments.plan]!;
    expect(first.amount).toBe(paid - first.fees - 5000);
    expect(first.tax).toBeGreaterThan(0);

    expect(body.unknownAtProvider).toEqual([
      {
        entityId: 'pay_payoutsStranger',
        type: 'payment',
        paymentId: null,
        providerOrderId: 'order_rzpStranger',
        amount: 250_000,
        ...feeOf(250_000),
        settlementId: second.id,
        utr: second.utr,
        settledAt: onDay(MONTH, 13).toISOString(),
      },
    ]);
    // B's advance was never settled; C's was taken with a test key.
    const [bPaid] = await t.deps.database.query<{ amount: number }>(
      'select amount::float8 as amount from payment_attempts where provider_payment_id = $1',
      [payments.unsettled],
    );
    expect(body.unsettled).toEqual([
      { paymentId: payments.unsettled, orderId: orders.b, amount: bPaid!.amount, currency: 'INR', paidAt: onDay(MONTH, 4).toISOString() },
    ]);
    expect(body.totals).toEqual({ amount: first.amount + second.amount, fees: first.fees + second.fees, tax: first.tax + second.tax });

    // The audit log names the owner's read.
    const [audit] = await t.deps.database.query<{ actor_email: string; after: unknown }>(
      "select actor_email, after from admin_audit_log where action = 'payouts.sync'",
    );
    expect(audit).toEqual({ actor_email: 'payouts.owner@example.com', after: { months: [MONTH], settlements: 2, items: 6 } });
  });

  it('gives the accountant the month as CSV: one row per line, rupees, fees and GST on fees, formulas neutralised', async () => {
    const res = await get(`payouts/${MONTH}.csv`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="payouts-${MONTH}.csv"`);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(PAYOUTS_CSV_HEADER.join(','));
    expect(lines).toHaveLength(1 + 6);
    const day = (d: number) => `${MONTH}-${String(d).padStart(2, '0')}`;
    const rupees = (paise: number) => (paise / 100).toFixed(2);
    const adv = amounts[payments.advance]!;
    expect(lines).toContain(
      [
        first.id,
        first.utr,
        day(6),
        rupees(first.amount),
        'payment',
        payments.advance,
        orders.a,
        rupees(adv),
        rupees(feeOf(adv).fee),
        rupees(feeOf(adv).tax),
        'yes',
      ].join(','),
    );
    expect(lines).toContain(
      [first.id, first.utr, day(6), rupees(first.amount), 'refund', payments.advance, orders.a, '50.00', '0.00', '0.00', 'yes'].join(','),
    );
    // The formula-like UTR is quoted and prefixed, never run by a spreadsheet.
    expect(lines).toContain(
      [
        second.id,
        `"'=HYPERLINK(""http://x"")"`,
        day(13),
        rupees(second.amount),
        'payment',
        'pay_payoutsStranger',
        '',
        '2500.00',
        rupees(feeOf(250_000).fee),
        rupees(feeOf(250_000).tax),
        'no',
      ].join(','),
    );
    expect(lines).toContain(
      [second.id, `"'=HYPERLINK(""http://x"")"`, day(13), rupees(second.amount), 'adjustment', '', '', '12.00', '0.00', '0.00', 'n/a'].join(
        ',',
      ),
    );
  });

  it('stores nothing twice when the same month is read again', async () => {
    const before = {
      settlements: await count('razorpay_settlements'),
      items: await count('razorpay_settlement_items'),
      reads: await count('razorpay_recon_reads'),
    };
    const again = await sync(owner, MONTH);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ settlements: 2, items: 6 });
    expect({
      settlements: await count('razorpay_settlements'),
      items: await count('razorpay_settlement_items'),
      reads: await count('razorpay_recon_reads'),
    }).toEqual(before);
    const page = (await get(`payouts?month=${MONTH}`, owner)).json();
    expect(page.payouts.flatMap((p: { items: unknown[] }) => p.items)).toHaveLength(6);
    expect(page.unknownAtProvider).toHaveLength(1);
    expect(page.unsettled).toHaveLength(1);
  });

  it('pages through Razorpay: more than 100 settlements and 1,000 recon lines', async () => {
    const lines = Array.from({ length: 1001 }, (_, i) => ({
      entityId: `pay_payoutsBulk${i}`,
      type: 'payment' as const,
      amount: 10_000 + i,
    }));
    for (let s = 0; s < 105; s++)
      rzp.settle(onDay(EARLIER, 1 + (s % 25), 9 + (s % 8)), lines.slice(s * 10, s === 104 ? undefined : s * 10 + 10));
    const res = await sync(owner, EARLIER);
    expect(res.statusCode, res.body).toBe(200);
    // The 105 settlements and the one of the first test on the 20th.
    expect(res.json()).toEqual({ settlements: 106, items: 1002 });
    const page = (await get(`payouts?month=${EARLIER}`, owner)).json();
    expect(page.payouts).toHaveLength(106);
    expect(page.unknownAtProvider).toHaveLength(1002);
    // Nothing of the month before leaks into the test's month.
    expect((await get(`payouts?month=${MONTH}`, owner)).json().payouts).toHaveLength(2);
  });

  it('reads Razorpay once a day from the job pass, and retries when Razorpay is down', async () => {
    const jobsOfSync = () =>
      t.deps.database.query<{ state: string; attempts: number; last_error: string | null }>(
        "select state, attempts, last_error from jobs where kind = 'payouts.sync'",
      );
    rzp.mode = 'down';
    // The pass's clock a little after the database's, which stamps the job it stores.
    const now = new Date(Date.now() + 2000);
    const pass = await runJobs(t.deps, now);
    // The rest of the pass ran; the read failed and waits for its retry.
    expect(pass.payoutSync).toBe(true);
    expect(pass.stored).toMatchObject({ retried: 1 });
    expect(await jobsOfSync()).toEqual([
      { state: 'pending', attempts: 1, last_error: expect.stringContaining('Razorpay could not be read') },
    ]);
    rzp.mode = 'ok';
    // A second pass of the day (another instance) stores no second read; the retry, once due, reads.
    const later = await runJobs(t.deps, new Date(now.getTime() + 20_000));
    expect(later.payoutSync).toBe(false);
    expect(await jobsOfSync()).toEqual([{ state: 'done', attempts: 2, last_error: null }]);
    expect(await count('payout_sync_days')).toBe(1);
  });

  it('is the owner’s: staff 403, customers 403, strangers 401; a bad month is a 400', async () => {
    const staff = await loginAs(t, 'payouts.staff@example.com', 'staff');
    const customer = await loginAs(t, 'payouts.customer@example.com');
    for (const who of [staff, customer]) {
      expect((await get(`payouts?month=${MONTH}`, who)).statusCode).toBe(403);
      expect((await get(`payouts/${MONTH}.csv`, who)).statusCode).toBe(403);
      expect((await sync(who)).statusCode).toBe(403);
    }
    expect((await get(`payouts?month=${MONTH}`)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/admin/payouts/sync' })).statusCode).toBe(401);
    // A session of its own: the reads above used this one's syncs a minute.
    const boss = await loginAs(t, 'payouts.owner@example.com', 'admin');
    for (const bad of ['2026-13', '2026-1', 'abc', '2026-11-01']) {
      const res = await get(`payouts?month=${bad}`, boss);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain('YYYY-MM');
      expect((await get(`payouts/${bad}.csv`, boss)).statusCode, bad).toBe(400);
      expect((await sync(boss, bad)).statusCode, bad).toBe(400);
    }
    // Reading Razorpay is limited per session.
    const limited = await Promise.all(Array.from({ length: 3 }, () => sync(boss, MONTH)));
    expect(limited.map((r) => r.statusCode)).toContain(429);
    // Without a month: this month where the agency invoices.
    expect((await get('payouts', owner)).statusCode).toBe(200);
  });
});

describe('payouts without Razorpay keys (the built-in test checkout)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('says where payouts come from, lists none, and schedules no read', async () => {
    const owner = await loginAs(t, 'payouts.nokeys@example.com', 'admin');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/admin/payouts/sync', headers: owner.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'CONFLICT',
      message: expect.stringContaining('Payouts come from Razorpay: set RAZORPAY_KEY_ID'),
    });
    const page = await t.app.inject({ method: 'GET', url: '/api/v1/admin/payouts', headers: owner.headers });
    expect(page.json()).toEqual({ payouts: [], unknownAtProvider: [], unsettled: [], totals: { amount: 0, fees: 0, tax: 0 } });
    expect((await runJobs(t.deps)).payoutSync).toBe(false);
  });
});
