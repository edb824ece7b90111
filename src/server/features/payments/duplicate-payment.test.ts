import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';

// The attack: a customer opens the remaining payment in two tabs and pays both
// with valid signatures, at the same moment, then replays them. The installment is credited once;
// the second payment is kept as a duplicate (provider payment id and time) for the refund.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestApp;
let rzp: FakeRazorpay;
type Login = Awaited<ReturnType<typeof loginAs>>;
const post = (url: string, who: Login, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: who.headers, payload: payload as object });

beforeAll(async () => {
  rzp = await startFakeRazorpay();
  t = await buildTestApp({
    ...rzp.env(),
  });
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});

describe('a duplicate payment (attack)', () => {
  it('credits an installment once, however many valid payments race for it, and records the duplicate', async () => {
    const buyer = await loginAs(t, 'two.tabs@example.com');
    const advance = await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true });
    const orderId = (await post('payment/verify-payment', buyer, rzp.pay(advance.json().id))).json().orderId as string;

    // Two tabs, two provider orders for the same remaining installment, both paid.
    const tabs = await Promise.all([1, 2].map(() => post('payment/create-order', buyer, { kind: 'remaining', orderId })));
    expect(tabs.map((r) => r.statusCode)).toEqual([200, 200]);
    const payments = tabs.map((r) => rzp.pay(r.json().id));
    const answers = await Promise.all(payments.map((p) => post('payment/verify-payment', buyer, p)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    // Replays of both, through the checkout callback again.
    for (const p of payments) expect((await post('payment/verify-payment', buyer, p)).statusCode).toBe(200);

    const attempts = await t.deps.database.query<{ state: string; provider_payment_id: string | null; paid_at: Date | null }>(
      `select p.state, p.provider_payment_id, p.paid_at from payment_attempts p join installments i on i.id = p.installment_id
         join orders o on o.id = i.order_id where o.public_id = $1 and i.kind = 'remaining' order by p.state`,
      [orderId],
    );
    expect(attempts.map((a) => a.state)).toEqual(['duplicate', 'paid']);
    const paymentIds = payments.map((p) => p.razorpay_payment_id).sort();
    expect(attempts.map((a) => a.provider_payment_id).sort()).toEqual(paymentIds);
    expect(attempts.every((a) => a.paid_at !== null)).toBe(true);

    const [installment] = await t.deps.database.query<{ state: string; provider_payment_id: string }>(
      `select i.state, i.provider_payment_id from installments i join orders o on o.id = i.order_id where o.public_id = $1 and i.kind = 'remaining'`,
      [orderId],
    );
    expect(installment!.state).toBe('paid');
    // Credited with the payment that won, which is the attempt marked paid.
    expect(installment!.provider_payment_id).toBe(attempts.find((a) => a.state === 'paid')!.provider_payment_id);

    // Stage 14 once, one receipt for the remaining payment.
    const stages = await t.deps.database.query<{ n: number }>(
      `select count(*)::int as n from order_stages s join orders o on o.id = s.order_id where o.public_id = $1 and s.stage = 14`,
      [orderId],
    );
    expect(stages[0]!.n).toBeLessThanOrEqual(1);
    const receipts = await t.deps.database.query<{ n: number }>(
      `select count(*)::int as n from mail_outbox where to_address = 'two.tabs@example.com' and template = 'payment-receipt'`,
    );
    expect(receipts[0]!.n).toBe(2); // the advance and the remaining, never the duplicate
  });
});
