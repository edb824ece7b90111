import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { mailOutbox } from '../../db/schema/platform.ts';

// The remaining paid in two tabs. Before: verify answered like any payment, the
// founder got no e-mail, nothing listed it, and nothing could refund it.

let t: TestApp;
let rzp: FakeRazorpay;
type Login = Awaited<ReturnType<typeof loginAs>>;
let buyer: Login;
let owner: Login;
let stranger: Login;

const post = (url: string, who: Login | null, payload?: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: who?.headers, payload: payload as object });
const get = (url: string, who: Login | null) => t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: who?.headers });

beforeAll(async () => {
  rzp = await startFakeRazorpay();
  t = await buildTestApp({
    ...rzp.env(),
    ADMIN_EMAILS: 'owner@example.com',
  });
  buyer = await loginAs(t, 'twotabs@example.com');
  stranger = await loginAs(t, 'other@example.com');
  owner = await loginAs(t, 'owner@example.com', 'admin');
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});

/** An order with its advance paid, and the remaining paid twice (two provider orders, two tabs). */
async function paidTwice() {
  const adv = await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true });
  const orderId = (await post('payment/verify-payment', buyer, rzp.pay(adv.json().id))).json().orderId as string;
  const tab1 = (await post('payment/create-order', buyer, { kind: 'remaining', orderId })).json();
  const tab2 = (await post('payment/create-order', buyer, { kind: 'remaining', orderId })).json();
  const first = await post('payment/verify-payment', buyer, rzp.pay(tab1.id));
  const secondPaid = rzp.pay(tab2.id);
  const second = await post('payment/verify-payment', buyer, secondPaid);
  return { orderId, first, second, duplicatePaymentId: secondPaid.razorpay_payment_id, amount: tab2.amount as number };
}

describe('a duplicate payment', () => {
  it('tells the customer, e-mails the founder, lists "Refund needed", and is refunded through Razorpay once, audited', async () => {
    const { orderId, first, second, duplicatePaymentId, amount } = await paidTwice();
    expect(first.json()).toMatchObject({ kind: 'remaining', orderId, duplicate: false });
    // The customer's screen learns the order was already paid (the page says it will be refunded).
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ kind: 'remaining', orderId, duplicate: true });

    const mails = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'owner@example.com'));
    const alert = mails.find((m) => m.template === 'refund-needed');
    expect(alert?.subject).toBe(`Refund needed: order ${orderId} was paid twice`);
    expect(alert?.textBody).toContain(duplicatePaymentId);

    const overview = (await get('admin/overview', owner)).json();
    expect(overview.refundsNeeded).toEqual([
      expect.objectContaining({ orderId, kind: 'remaining', providerPaymentId: duplicatePaymentId, amount, currency: expect.any(String) }),
    ]);
    const detail = (await get(`admin/orders/${orderId}`, owner)).json();
    const attempts = detail.installments.find((i: { kind: string }) => i.kind === 'remaining').attempts;
    expect(attempts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ providerPaymentId: duplicatePaymentId, state: 'duplicate', refundState: 'needed' }),
      ]),
    );

    // Only the founder may refund.
    expect((await post(`admin/orders/${orderId}/refunds`, buyer, { providerPaymentId: duplicatePaymentId })).statusCode).toBe(403);
    expect((await post(`admin/orders/${orderId}/refunds`, stranger, { providerPaymentId: duplicatePaymentId })).statusCode).toBe(403);
    expect((await post(`admin/orders/${orderId}/refunds`, owner, { providerPaymentId: 'pay_nope' })).statusCode).toBe(404);

    const refunded = await post(`admin/orders/${orderId}/refunds`, owner, { providerPaymentId: duplicatePaymentId });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(rzp.refunds).toEqual([
      expect.objectContaining({ entity: 'refund', payment_id: duplicatePaymentId, amount, status: 'processed' }),
    ]);
    expect(refunded.json()).toMatchObject({ refundState: 'refunded', reference: rzp.refunds[0]!.id, via: 'provider' });
    expect(rzp.requests.filter((r) => r.path === `/v1/payments/${duplicatePaymentId}/refund`).every((r) => r.authorized)).toBe(true);

    // Twice is refused; nothing more leaves the account; the list is empty; the audit log has it.
    expect((await post(`admin/orders/${orderId}/refunds`, owner, { providerPaymentId: duplicatePaymentId })).statusCode).toBe(409);
    expect(rzp.refunds).toHaveLength(1);
    expect((await get('admin/overview', owner)).json().refundsNeeded).toEqual([]);
    const audit = (await get('admin/audit?action=order.payment.refund', owner)).json();
    expect(audit.items[0]).toMatchObject({
      action: 'order.payment.refund',
      entityId: orderId,
      after: { refundState: 'refunded', via: 'provider', reference: rzp.refunds[0]!.id },
    });
  });

  it('refunds a received advance once, with its refund document (decision 221), and refuses a malformed id', async () => {
    const adv = await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true });
    const paid = rzp.pay(adv.json().id);
    const orderId = (await post('payment/verify-payment', buyer, paid)).json().orderId as string;
    expect((await post(`admin/orders/${orderId}/refunds`, owner, { providerPaymentId: paid.razorpay_payment_id })).statusCode).toBe(200);
    expect((await post(`admin/orders/${orderId}/refunds`, owner, { providerPaymentId: paid.razorpay_payment_id })).statusCode).toBe(409);
    expect((await post(`admin/orders/${orderId}/refunds`, owner, { providerPaymentId: ['x'] })).statusCode).toBe(400);
  });
});

describe('a duplicate payment in test mode (no Razorpay keys)', () => {
  it("needs the founder's reference to be marked refunded", async () => {
    const local = await buildTestApp({ ADMIN_EMAILS: 'owner@example.com' });
    try {
      const me = await loginAs(local, 'tester@example.com');
      const boss = await loginAs(local, 'owner@example.com', 'admin');
      const p = (url: string, who: Login, payload?: unknown) =>
        local.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: who.headers, payload: payload as object });
      const payTest = async (id: string) => {
        const r = await local.app.inject({
          method: 'POST',
          url: `/api/v1/payment/test-checkout/${id}`,
          payload: 'action=pay',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        return Object.fromEntries(new URL(r.headers.location as string, 'http://x').searchParams);
      };
      const adv = (await p('payment/create-order', me, { kind: 'advance', acceptTerms: true })).json();
      const orderId = (await p('payment/verify-payment', me, await payTest(adv.id))).json().orderId as string;
      const a = (await p('payment/create-order', me, { kind: 'remaining', orderId })).json();
      const b = (await p('payment/create-order', me, { kind: 'remaining', orderId })).json();
      await p('payment/verify-payment', me, await payTest(a.id));
      const dupFields = await payTest(b.id);
      expect((await p('payment/verify-payment', me, dupFields)).json()).toMatchObject({ duplicate: true });
      const none = await p(`admin/orders/${orderId}/refunds`, boss, { providerPaymentId: dupFields.razorpay_payment_id });
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toMatch(/reference/);
      const ok = await p(`admin/orders/${orderId}/refunds`, boss, {
        providerPaymentId: dupFields.razorpay_payment_id,
        reference: 'NEFT-7731 <b>',
      });
      expect(ok.json()).toMatchObject({ refundState: 'refunded', reference: 'NEFT-7731 <b>', via: 'manual' });
    } finally {
      await local.close();
    }
  }, 120_000); // a second app of its own: slow to build on a busy machine
});
