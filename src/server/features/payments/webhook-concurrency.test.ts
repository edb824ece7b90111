import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { installments, orders, paymentAttempts, paymentEvents } from '../../db/schema/orders.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { invoices } from '../../db/schema/invoices.ts';

// Razorpay retries a webhook it thinks was lost, and a proxy may replay it, so the
// same signed event can arrive many times at once. The payment is credited once, and the one
// stored row of that event id says what the event did — the delivery that credited the payment
// is the one recorded, never a duplicate that merely saw the payment already paid.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

const DELIVERIES = 200;

let t: TestApp;
let rzp: FakeRazorpay;
let base: string;

beforeAll(async () => {
  rzp = await startFakeRazorpay();
  t = await buildTestApp({ ...rzp.env() });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});

describe('one webhook event delivered 200 times at once', () => {
  it('credits the payment once; the only row of the event id records the crediting outcome', async () => {
    const buyer = await loginAs(t, 'webhook.storm@example.com');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/create-order',
      headers: buyer.headers,
      payload: { kind: 'advance', acceptTerms: true },
    });
    expect(created.statusCode, created.body).toBe(200);
    const providerOrderId = created.json().id as string;
    const paid = rzp.pay(providerOrderId);
    const delivery = rzp.webhook(
      'payment.captured',
      {
        id: paid.razorpay_payment_id,
        order_id: providerOrderId,
        amount: created.json().amount,
        currency: created.json().currency,
        status: 'captured',
      },
      'evt_storm_1',
    );

    // Real HTTP, all in flight together (the browser never comes back: only the webhook settles).
    const answers = await Promise.all(
      Array.from({ length: DELIVERIES }, async () => {
        const r = await fetch(`${base}/api/v1/payment/webhook`, { method: 'POST', headers: delivery.headers, body: delivery.body });
        return { status: r.status, body: (await r.json()) as { status?: string } };
      }),
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const said = answers.map((a) => a.body.status);
    expect(said.filter((s) => s === 'processed')).toHaveLength(1);
    expect(said.filter((s) => s === 'duplicate')).toHaveLength(DELIVERIES - 1);

    // Credited once: one paid attempt, one paid installment, one invoice, one receipt.
    const [attempt] = await t.deps.db
      .select({
        state: paymentAttempts.state,
        installmentId: paymentAttempts.installmentId,
        providerPaymentId: paymentAttempts.providerPaymentId,
      })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.providerOrderId, providerOrderId));
    expect(attempt).toMatchObject({ state: 'paid', providerPaymentId: paid.razorpay_payment_id });
    const [installment] = await t.deps.db.select().from(installments).where(eq(installments.id, attempt!.installmentId));
    expect(installment!.state).toBe('paid');
    const [order] = await t.deps.db.select({ state: orders.state }).from(orders).where(eq(orders.id, installment!.orderId));
    expect(order!.state).toBe('in_progress');
    expect(await t.deps.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.installmentId, installment!.id))).toHaveLength(1);
    const receipts = await t.deps.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, 'webhook.storm@example.com'), eq(mailOutbox.template, 'payment-receipt')));
    expect(receipts).toHaveLength(1);

    // Exactly one event row, and it is the crediting one.
    const rows = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.provider, 'razorpay'), eq(paymentEvents.eventId, 'evt_storm_1')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ eventType: 'payment.captured', providerOrderId, outcome: 'paid' });
  });
});
