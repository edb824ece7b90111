import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';

// A change's price is fixed when its checkout opens (docs/decisions/332-change-quote-version.md):
// the agency re-quotes from ₹5,000 to ₹9,000 while Razorpay answers the checkout, between the
// checkout and the payment, or at the same moment as the checkout — on PGlite, or PostgreSQL with
// TEST_DB=postgres. No change is ever accepted at a price it was not paid at; every payment at a
// stale quote is refunded through the refund flow and listed on the overview until it is.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

type Login = Awaited<ReturnType<typeof loginAs>>;
let t: TestApp;
let rzp: FakeRazorpay;
let owner: Login;
let customer: Login;
let orderId: string;

const FIVE = 500_000;
const NINE = 900_000;
const post = (url: string, who: Login, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: who.headers, payload: payload as object });
const deliver = (d: { body: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: d.headers, payload: d.body });
const quote = (changeId: string, amount: number) =>
  post(`admin/orders/${orderId}/changes/${changeId}/quote`, owner, { amount, extraDays: 1 });
const checkout = (changeId: string) => post('payment/create-order', customer, { kind: 'change', orderId, changeId, acceptTerms: true });
const pay = (providerOrderId: string) => post('payment/verify-payment', customer, rzp.pay(providerOrderId));

async function quotedChange(title: string) {
  const asked = await post(`orders/${orderId}/changes`, customer, { title, description: 'Please.' });
  expect(asked.statusCode, asked.body).toBe(201);
  const id = asked.json().change.id as string;
  expect((await quote(id, FIVE)).statusCode).toBe(200);
  return id;
}
const changeOf = async (id: string) => {
  const [row] = await t.deps.database.query<{ state: string; amount: number; quote_version: number }>(
    'select state, amount::float8 as amount, quote_version from order_changes where id = $1',
    [id],
  );
  return row!;
};
const attemptsOf = (id: string) =>
  t.deps.database.query<{
    state: string;
    amount: number;
    quote_version: number | null;
    refund_state: string | null;
    provider_payment_id: string | null;
  }>(
    `select p.state, p.amount::float8 as amount, p.quote_version, p.refund_state, p.provider_payment_id
       from payment_attempts p join installments i on i.id = p.installment_id where i.change_id = $1 order by p.created_at`,
    [id],
  );
const refundsOf = (paymentId: string) =>
  t.deps.database.query<{ origin: string; status: string; amount: number; provider_refund_id: string | null }>(
    'select origin, status, amount::float8 as amount, provider_refund_id from payment_refunds where provider_payment_id = $1',
    [paymentId],
  );
const overviewRefundsNeeded = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers })).json().refundsNeeded as {
    providerPaymentId: string;
    kind: string;
    refunding: boolean;
  }[];

beforeAll(async () => {
  // Live keys: Razorpay keeps a normal refund pending until its webhook, so the flag can be seen.
  rzp = await startFakeRazorpay({ keyId: 'rzp_live_quoterace' });
  t = await buildTestApp({ ...rzp.env() });
  owner = await loginAs(t, 'race.owner@example.com', 'admin');
  customer = await loginAs(t, 'race.customer@example.com');
  const advance = await post('payment/create-order', customer, { kind: 'advance', acceptTerms: true, currency: 'INR' });
  expect(advance.statusCode, advance.body).toBe(200);
  const verified = await pay(advance.json().id);
  expect(verified.statusCode, verified.body).toBe(200);
  orderId = verified.json().orderId;
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});

describe('a re-quote while the checkout opens', () => {
  it('re-quoted while Razorpay answers: the checkout is refused (409) and records nothing; the next one is at the new price', async () => {
    const id = await quotedChange('Re-quoted during the checkout');
    let requoted = 0;
    rzp.whileCreatingOrder = async () => {
      requoted = (await quote(id, NINE)).statusCode;
    };
    const open = await checkout(id);
    expect(requoted).toBe(200);
    expect(open.statusCode, open.body).toBe(409);
    expect(open.json().message).toMatch(/quote of this change changed while the checkout opened/);
    expect(await attemptsOf(id)).toEqual([]);

    const again = await checkout(id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().quote.price).toBe(NINE);
    const paid = await pay(again.json().id);
    expect(paid.json()).toMatchObject({ duplicate: false });
    expect(await changeOf(id)).toEqual({ state: 'accepted', amount: NINE, quote_version: 2 });
    expect(await attemptsOf(id)).toEqual([expect.objectContaining({ state: 'paid', quote_version: 2, refund_state: null })]);
  });

  it('re-quoted between the checkout and the payment: the payment is not accepted, it is refunded and flagged until the refund is processed', async () => {
    const id = await quotedChange('Re-quoted before paying');
    const open = await checkout(id);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().quote.price).toBe(FIVE);
    expect((await quote(id, NINE)).statusCode).toBe(200);
    const paid = await pay(open.json().id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ duplicate: true });
    expect(await changeOf(id)).toEqual({ state: 'quoted', amount: NINE, quote_version: 2 });

    const [attempt] = await attemptsOf(id);
    expect(attempt).toMatchObject({ state: 'duplicate', quote_version: 1, refund_state: 'needed' });
    const paymentId = attempt!.provider_payment_id!;
    // Asked of Razorpay at once, for the whole payment; pending until Razorpay says it moved.
    const [refund] = await refundsOf(paymentId);
    expect(refund).toMatchObject({
      origin: 'duplicate',
      status: 'pending',
      amount: attempt!.amount,
      provider_refund_id: expect.stringMatching(/^rfnd_/),
    });
    expect(rzp.refunds.filter((r) => r.payment_id === paymentId)).toHaveLength(1);
    expect(await overviewRefundsNeeded()).toContainEqual(
      expect.objectContaining({ providerPaymentId: paymentId, kind: 'change', refunding: true }),
    );
    // The founder cannot refund it a second time by hand.
    const twice = await post(`admin/orders/${orderId}/refunds`, owner, { providerPaymentId: paymentId });
    expect(twice.statusCode, twice.body).toBe(409);

    expect((await deliver(rzp.processRefund(refund!.provider_refund_id!))).statusCode).toBe(200);
    expect(await refundsOf(paymentId)).toEqual([expect.objectContaining({ status: 'processed' })]);
    expect((await attemptsOf(id))[0]).toMatchObject({ refund_state: 'refunded' });
    expect((await overviewRefundsNeeded()).map((r) => r.providerPaymentId)).not.toContain(paymentId);
  });

  it('in parallel, five times: a checkout and a re-quote at once, then the payment — never accepted at the old price', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await quotedChange(`Race ${round}`);
      // Half the rounds re-quote from inside the provider's answer, half at the same moment as the checkout.
      const requote =
        round % 2 === 0
          ? new Promise<number>((resolve) => (rzp.whileCreatingOrder = async () => resolve((await quote(id, NINE)).statusCode)))
          : quote(id, NINE).then((r) => r.statusCode);
      const [open, requoted] = await Promise.all([checkout(id), requote]);
      rzp.whileCreatingOrder = null;
      expect(requoted).toBe(200);
      if (open.statusCode === 409) {
        expect(await attemptsOf(id)).toEqual([]);
        expect(await changeOf(id)).toMatchObject({ state: 'quoted', amount: NINE });
        continue;
      }
      expect(open.statusCode, open.body).toBe(200);
      const paid = await pay(open.json().id);
      expect(paid.statusCode, paid.body).toBe(200);
      const change = await changeOf(id);
      const [attempt] = await attemptsOf(id);
      if (open.json().quote.price === NINE) {
        // The checkout read the new quote: paid at it and accepted.
        expect(paid.json()).toMatchObject({ duplicate: false });
        expect(change).toEqual({ state: 'accepted', amount: NINE, quote_version: 2 });
        expect(attempt).toMatchObject({ state: 'paid', quote_version: 2 });
      } else {
        // The checkout read the old quote: the payment is refunded, the change waits at ₹9,000.
        expect(paid.json()).toMatchObject({ duplicate: true });
        expect(change).toEqual({ state: 'quoted', amount: NINE, quote_version: 2 });
        expect(attempt).toMatchObject({ state: 'duplicate', quote_version: 1, refund_state: 'needed' });
        expect(await refundsOf(attempt!.provider_payment_id!)).toEqual([
          expect.objectContaining({ origin: 'duplicate', status: 'pending' }),
        ]);
      }
    }
    // Whatever the order of events: no accepted change at a price other than its paid attempt's quote.
    const wrong = await t.deps.database.query(
      `select c.id from order_changes c join installments i on i.change_id = c.id join payment_attempts p on p.installment_id = i.id
        where c.state = 'accepted' and p.state = 'paid' and p.quote_version is distinct from c.quote_version`,
    );
    expect(wrong).toEqual([]);
  });
});
