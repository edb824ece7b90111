import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { installments, orders } from '../../db/schema/orders.ts';
import { paymentRefunds } from '../../db/schema/ledger.ts';
import { paymentReminders } from '../../db/schema/reminders.ts';
import type { DomainEventMap } from '../../lib/domain-events.ts';

// Cancel and refund through Razorpay (docs/decisions/321-cancel-and-refund.md). Found in the field:
// an order could not be cancelled or refunded from the back office; a refund of the advance left the
// remaining "Due" and the order in progress.

let t: TestApp;
let rzp: FakeRazorpay;
type Login = Awaited<ReturnType<typeof loginAs>>;
let owner: Login;
let staff: Login;
const seen: { cancelled: DomainEventMap['order.cancelled'][]; recorded: DomainEventMap['refund.recorded'][] } = {
  cancelled: [],
  recorded: [],
};

const req = (method: 'GET' | 'POST', url: string, who: Login | null, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: { ...who?.headers, ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const post = (url: string, who: Login | null, payload?: unknown, headers?: Record<string, string>) =>
  req('POST', url, who, payload ?? {}, headers);
const get = (url: string, who: Login | null) => req('GET', url, who);
const deliver = (d: { body: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: d.headers, payload: d.body });
const cancel = (orderId: string, body: unknown, key = `k-${Math.random()}`, who = owner) =>
  post(`admin/orders/${orderId}/cancel`, who, body, { 'idempotency-key': key });

beforeAll(async () => {
  // Live keys: Razorpay keeps a normal refund pending until its webhook (test keys process at once).
  rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
  t = await buildTestApp({ ...rzp.env(), ADMIN_EMAILS: 'owner@example.com' });
  owner = await loginAs(t, 'owner@example.com', 'admin');
  staff = await loginAs(t, 'staffer@example.com', 'staff');
  // What the ledger will hear (features/ledger subscribes to the same events).
  t.deps.events.inTransaction('order.cancelled', async (e) => void seen.cancelled.push(e));
  t.deps.events.inTransaction('refund.recorded', async (e) => void seen.recorded.push(e));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});

/** A customer's order with the advance paid through the fake; optionally the remaining too. */
async function paidOrder(email: string, opts: { remaining?: boolean } = {}) {
  const buyer = await loginAs(t, email);
  const adv = (await post('payment/create-order', buyer, { kind: 'advance', acceptTerms: true })).json();
  const paid = rzp.pay(adv.id);
  const orderId = (await post('payment/verify-payment', buyer, paid)).json().orderId as string;
  let remainingPaymentId: string | undefined;
  if (opts.remaining) {
    const rem = (await post('payment/create-order', buyer, { kind: 'remaining', orderId })).json();
    const p = rzp.pay(rem.id);
    expect((await post('payment/verify-payment', buyer, p)).statusCode).toBe(200);
    remainingPaymentId = p.razorpay_payment_id;
  }
  return { buyer, orderId, advance: adv.amount as number, advancePaymentId: paid.razorpay_payment_id, remainingPaymentId };
}

const orderRow = async (publicId: string) => (await t.deps.db.select().from(orders).where(eq(orders.publicId, publicId)))[0]!;
const refundsOf = async (publicId: string) =>
  t.deps.db
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.orderId, (await orderRow(publicId)).id));
const mailsTo = (email: string, template: string) =>
  t.deps.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.template, template)));
const refundDocs = async (publicId: string) =>
  t.deps.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, (await orderRow(publicId)).id), inArray(invoices.docKind, ['refund_voucher', 'credit_note'])));

describe('cancel before "UI Started" with the whole advance refunded', () => {
  it('asks Razorpay once, stays pending until the signed refund.processed, then issues the refund voucher, publishes once and mails once', async () => {
    const { buyer, orderId, advance, advancePaymentId } = await paidOrder('cancel.early@example.com');

    // The panel's default is the terms' refund: the whole advance before "UI Started".
    const panel = (await get(`admin/orders/${orderId}/refunds`, owner)).json();
    expect(panel.cancel).toMatchObject({ allowed: true, maxRefund: advance, defaultRefund: advance, cancelledAt: null });
    expect(panel.cancel.defaultReason).toMatch(/whole advance/);

    // Owner only: staff are refused before anything happens.
    expect((await cancel(orderId, { reason: 'Customer asked', refundAmount: advance }, 'k-staff', staff)).statusCode).toBe(403);
    expect((await get(`admin/orders/${orderId}/refunds`, staff)).statusCode).toBe(403);

    const first = await cancel(orderId, { reason: 'Customer changed their mind', refundAmount: advance }, 'cancel-early-1');
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body).toEqual({
      order: { state: 'cancelled' },
      refunds: [{ id: expect.any(String), paymentId: advancePaymentId, amount: advance, status: 'pending' }],
    });
    const asked = rzp.refunds.filter((r) => r.payment_id === advancePaymentId);
    expect(asked).toEqual([
      expect.objectContaining({
        amount: advance,
        speed_requested: 'normal',
        status: 'pending',
        notes: expect.objectContaining({ orderId, refundId: body.refunds[0].id }),
      }),
    ]);
    expect(asked[0]!.receipt).toMatch(/^rf_[0-9a-f]{32}$/);

    // The same key again: the same answer, no second cancel, no second Razorpay call.
    const again = await cancel(orderId, { reason: 'Customer changed their mind', refundAmount: advance }, 'cancel-early-1');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(body);
    // Another key: the order is already cancelled.
    const other = await cancel(orderId, { reason: 'Again', refundAmount: 0 }, 'cancel-early-2');
    expect(other.statusCode).toBe(409);
    expect(rzp.refunds.filter((r) => r.payment_id === advancePaymentId)).toHaveLength(1);
    expect(seen.cancelled.filter((e) => e.orderPublicId === orderId)).toEqual([
      expect.objectContaining({ reason: 'Customer changed their mind', refundAmount: advance, byUserId: owner.user.id }),
    ]);

    // Cancelled at once: the customer sees it, owes nothing more and can no longer pay or ask for changes.
    expect((await orderRow(orderId)).state).toBe('cancelled');
    const status = (await get(`status/getStatus/order/${orderId}`, buyer)).json();
    expect(status).toMatchObject({ cancelledAt: expect.any(String), remainingAmount: 0 });
    const mine = (await get('order/getAllOrders/user', buyer)).json().orders.find((o: { order_id: string }) => o.order_id === orderId);
    expect(mine).toMatchObject({ remaining_status: 'Cancelled', cancelledAt: expect.any(String) });
    const pay = await post('payment/create-order', buyer, { kind: 'remaining', orderId });
    expect(pay.statusCode).toBe(409);
    expect(pay.json().message).toMatch(/cancelled/);
    expect((await post(`orders/${orderId}/changes`, buyer, { title: 'A new page', description: 'Please add a page.' })).statusCode).toBe(
      409,
    );
    const review = await post(`orders/${orderId}/reviews/00000000-0000-4000-8000-000000000000/decision`, buyer, { decision: 'approve' });
    expect(review.statusCode).toBe(409);
    expect(review.json().message).toMatch(/cancelled/);
    expect((await post(`admin/orders/${orderId}/stages/next`, owner, {})).statusCode).toBe(409);
    // Pending: no document, no refund.recorded, no mail yet.
    expect(await refundDocs(orderId)).toEqual([]);
    expect(seen.recorded.filter((e) => e.orderPublicId === orderId)).toEqual([]);
    expect(await mailsTo('cancel.early@example.com', 'order-cancelled')).toEqual([]);
    expect((await get(`admin/orders/${orderId}/refunds`, owner)).json()).toMatchObject({
      refunds: [{ status: 'pending', origin: 'cancel', reference: asked[0]!.id }],
      cancel: { allowed: false, cancelledAt: expect.any(String), reason: 'Customer changed their mind', maxRefund: 0 },
    });

    // A forged webhook is refused and changes nothing.
    const processed = rzp.processRefund(asked[0]!.id);
    const forged = await deliver({ body: processed.body, headers: { ...processed.headers, 'x-razorpay-signature': 'ab'.repeat(32) } });
    expect(forged.statusCode).toBe(401);
    expect((await refundsOf(orderId))[0]!.status).toBe('pending');

    const ok = await deliver(processed);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'processed' });
    const [row] = await refundsOf(orderId);
    expect(row).toMatchObject({ status: 'processed', providerRefundId: asked[0]!.id, origin: 'cancel', documentId: expect.any(String) });
    const docs = await refundDocs(orderId);
    expect(docs).toEqual([
      expect.objectContaining({
        docKind: 'refund_voucher',
        amount: advance,
        providerPaymentId: advancePaymentId,
        number: expect.stringMatching(/^RF\//),
      }),
    ]);
    expect(seen.recorded.filter((e) => e.orderPublicId === orderId)).toEqual([
      expect.objectContaining({
        refundId: row!.id,
        providerRefundId: asked[0]!.id,
        providerPaymentId: advancePaymentId,
        origin: 'cancel',
        amount: advance,
        testMode: false,
        document: { id: docs[0]!.id, number: docs[0]!.number },
      }),
    ]);
    const mails = await mailsTo('cancel.early@example.com', 'order-cancelled');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(new RegExp(`Order ${orderId} is cancelled`));
    expect(mails[0]!.textBody).toContain(docs[0]!.number);

    // Replayed (same event id) and re-sent (a new event id): nothing happens twice.
    expect((await deliver(processed)).json()).toMatchObject({ status: 'duplicate' });
    expect((await deliver(rzp.refundWebhook('refund.processed', asked[0]!.id))).statusCode).toBe(200);
    expect(await refundDocs(orderId)).toHaveLength(1);
    expect(seen.recorded.filter((e) => e.orderPublicId === orderId)).toHaveLength(1);
    expect(await mailsTo('cancel.early@example.com', 'order-cancelled')).toHaveLength(1);

    // The order left every waiting list.
    const actions = (await get('orders/actions', buyer)).json();
    expect(actions.orders.find((o: { orderId: string }) => o.orderId === orderId)?.waiting ?? []).toEqual([]);
  });
});

describe('a cancel with nothing refunded, after design work started', () => {
  it('defaults to nothing, asks no one, issues no document, stops the payment reminders and mails at once', async () => {
    const { orderId, buyer } = await paidOrder('cancel.late@example.com');
    for (let i = 2; i <= 13; i++) expect((await post(`admin/orders/${orderId}/stages/next`, owner, {})).statusCode).toBe(200);
    const id = (await orderRow(orderId)).id;
    expect(
      (
        await t.deps.db
          .select()
          .from(paymentReminders)
          .where(and(eq(paymentReminders.orderId, id), eq(paymentReminders.state, 'pending')))
      ).length,
    ).toBeGreaterThan(0);
    expect((await get(`admin/orders/${orderId}/refunds`, owner)).json().cancel).toMatchObject({
      defaultRefund: 0,
      defaultReason: expect.stringMatching(/refund nothing/),
    });
    const calls = rzp.refunds.length;
    const res = await cancel(orderId, { reason: 'Customer stopped answering', refundAmount: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ order: { state: 'cancelled' }, refunds: [] });
    expect(rzp.refunds).toHaveLength(calls);
    expect(await refundDocs(orderId)).toEqual([]);
    expect(await refundsOf(orderId)).toEqual([]);
    expect(
      (
        await t.deps.db
          .select()
          .from(paymentReminders)
          .where(and(eq(paymentReminders.orderId, id), eq(paymentReminders.state, 'pending')))
      ).length,
    ).toBe(0);
    const mails = await mailsTo('cancel.late@example.com', 'order-cancelled');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toMatch(/Nothing is refunded/);
    // Nothing waits for the customer on it any more (the payment was due after Launch Readiness).
    const mine = (await get('orders/actions', buyer)).json().orders.find((o: { orderId: string }) => o.orderId === orderId);
    expect(mine.waiting).toEqual([]);
    const overview = (await get('admin/overview', owner)).json();
    expect(overview.ordersByStage.find((s: { stage: number }) => s.stage === 13).count).toBe(0);
  });
});

describe("the customer's writes on a cancelled order", () => {
  it('answer 409 from one guard (the brief, a message, a support request, a rating here); reads and marking read still work; a stranger gets 404', async () => {
    const { orderId, buyer } = await paidOrder('cancel.writes@example.com');
    const put = (url: string, who: Login, payload: unknown) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/${url}`, headers: who.headers, payload: payload as object });
    // Before the cancel the brief saves.
    expect((await put(`orders/${orderId}/brief`, buyer, { answers: {} })).statusCode).toBe(200);
    expect((await cancel(orderId, { reason: 'Customer asked', refundAmount: 0 })).statusCode).toBe(200);

    const refused = [
      await put(`orders/${orderId}/brief`, buyer, { answers: {} }),
      await post(`orders/${orderId}/messages`, buyer, { text: 'Still there?' }),
      await post(`orders/${orderId}/support/requests`, buyer, { category: 'bug', title: 'Broken', description: 'It is broken.' }),
      await post(`orders/${orderId}/rating`, buyer, { score: 5 }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe('This order is cancelled: nothing more can be changed or paid on it.');
    }
    // Reads stay open, and so does marking the thread read.
    expect((await get(`orders/${orderId}/brief`, buyer)).statusCode).toBe(200);
    expect((await get(`orders/${orderId}/statement`, buyer)).statusCode).toBe(200);
    expect((await post(`orders/${orderId}/messages/read`, buyer, {})).statusCode).toBeLessThan(300);
    // Another customer learns nothing: the route's own 404.
    const stranger = await loginAs(t, 'cancel.stranger@example.com');
    expect((await post(`orders/${orderId}/messages`, stranger, { text: 'Hello' })).statusCode).toBe(404);
  });
});

describe('a partial refund after the invoice', () => {
  it('refuses what is not allowed (400, 404), then refunds part of the advance with a credit note against the invoice', async () => {
    const { orderId, advance, advancePaymentId } = await paidOrder('cancel.invoiced@example.com', { remaining: true });
    const paidAll = (await get(`admin/orders/${orderId}/refunds`, owner)).json().cancel.maxRefund as number;
    expect(paidAll).toBeGreaterThan(advance);
    for (const bad of [
      { reason: 'x', refundAmount: paidAll + 1 },
      { reason: 'x', refundAmount: -1 },
      { reason: 'x', refundAmount: 10.5 },
      { reason: 'x', refundAmount: '100' },
      { reason: '   ', refundAmount: 0 },
      { reason: 'x'.repeat(501), refundAmount: 0 },
      { refundAmount: 0 },
    ]) {
      const r = await cancel(orderId, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await cancel('ORDNOSUCHORDER00', { reason: 'x', refundAmount: 0 })).statusCode).toBe(404);
    expect((await orderRow(orderId)).state).not.toBe('cancelled');

    // Paid in full but not delivered: still cancellable (decision 321); the amount goes to the advance first.
    const res = await cancel(orderId, { reason: 'We cannot deliver', refundAmount: 5000 });
    expect(res.statusCode, res.body).toBe(200);
    const [refund] = res.json().refunds;
    expect(refund).toMatchObject({ paymentId: advancePaymentId, amount: 5000, status: 'pending' });
    const asked = rzp.refunds.find((r) => r.notes.refundId === refund.id)!;
    expect((await deliver(rzp.processRefund(asked.id))).json()).toMatchObject({ status: 'processed' });
    const docs = await refundDocs(orderId);
    const invoice = (
      await t.deps.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.orderId, (await orderRow(orderId)).id), eq(invoices.installmentKind, 'remaining')))
    ).find((d) => d.docKind === 'tax_invoice' || d.docKind === 'invoice')!;
    expect(docs).toEqual([
      expect.objectContaining({ docKind: 'credit_note', amount: 5000, creditNoteFor: invoice.id, number: expect.stringMatching(/^CN\//) }),
    ]);
    expect(await mailsTo('cancel.invoiced@example.com', 'order-cancelled')).toHaveLength(1);
  });

  it('splits an amount above the advance over the advance, then the remaining', async () => {
    const { orderId, advance, advancePaymentId, remainingPaymentId } = await paidOrder('cancel.split@example.com', { remaining: true });
    const res = await cancel(orderId, { reason: 'Refund all', refundAmount: advance + 1000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refunds.map((r: { paymentId: string; amount: number }) => [r.paymentId, r.amount])).toEqual([
      [advancePaymentId, advance],
      [remainingPaymentId, 1000],
    ]);
    // The customer is mailed once, when the last of the two is processed.
    const [a, b] = res.json().refunds.map((r: { id: string }) => rzp.refunds.find((x) => x.notes.refundId === r.id)!);
    await deliver(rzp.processRefund(a!.id));
    expect(await mailsTo('cancel.split@example.com', 'order-cancelled')).toHaveLength(0);
    await deliver(rzp.processRefund(b!.id));
    expect(await mailsTo('cancel.split@example.com', 'order-cancelled')).toHaveLength(1);
    expect((await refundDocs(orderId)).map((d) => d.docKind).sort()).toEqual(['credit_note', 'credit_note']);
  });

  it('refuses (409) an order that is fully paid and delivered', async () => {
    const { orderId, buyer } = await paidOrder('cancel.delivered@example.com');
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v1/admin/orders/${orderId}/delivery-link`,
          headers: owner.headers,
          payload: { url: 'https://example.com' },
        })
      ).statusCode,
    ).toBe(200);
    for (let i = 2; i <= 13; i++) expect((await post(`admin/orders/${orderId}/stages/next`, owner, {})).statusCode).toBe(200);
    const rem = (await post('payment/create-order', buyer, { kind: 'remaining', orderId })).json();
    expect((await post('payment/verify-payment', buyer, rzp.pay(rem.id))).statusCode).toBe(200);
    expect((await orderRow(orderId)).state).toBe('delivered');
    const res = await cancel(orderId, { reason: 'Too late', refundAmount: 0 });
    expect(res.statusCode).toBe(409);
    expect((await get(`admin/orders/${orderId}/refunds`, owner)).json().cancel).toMatchObject({
      allowed: false,
      refusal: expect.stringMatching(/delivered/),
    });
  });
});

describe('a refund that fails', () => {
  it('is listed on the overview after refund.failed, and Retry asks Razorpay again', async () => {
    const { orderId, advance, advancePaymentId } = await paidOrder('cancel.failed@example.com');
    const res = await cancel(orderId, { reason: 'Customer asked', refundAmount: advance });
    const refundId = res.json().refunds[0].id as string;
    const first = rzp.refunds.find((r) => r.notes.refundId === refundId)!;
    expect((await deliver(rzp.failRefund(first.id))).statusCode).toBe(200);
    expect((await refundsOf(orderId))[0]).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/failed/) });
    const overview = (await get('admin/overview', owner)).json();
    expect(overview.refundsFailed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: refundId, orderId, paymentId: advancePaymentId, amount: advance, origin: 'cancel' }),
      ]),
    );
    // Staff see no money on the overview, and may not retry.
    expect((await get('admin/overview', staff)).json()).not.toHaveProperty('refundsFailed');
    expect((await post(`admin/refunds/${refundId}/retry`, staff)).statusCode).toBe(403);

    const retried = await post(`admin/refunds/${refundId}/retry`, owner);
    expect(retried.statusCode, retried.body).toBe(200);
    const second = rzp.refunds.filter((r) => r.notes.refundId === refundId);
    expect(second).toHaveLength(2);
    expect(retried.json()).toMatchObject({ id: refundId, status: 'pending', reference: second[1]!.id });
    expect((await post(`admin/refunds/${refundId}/retry`, owner)).statusCode).toBe(409);
    expect((await get('admin/overview', owner)).json().refundsFailed.map((r: { id: string }) => r.id)).not.toContain(refundId);
    // A late refund.failed for the first refund changes nothing now.
    await deliver(rzp.refundWebhook('refund.failed', first.id));
    expect((await refundsOf(orderId))[0]!.status).toBe('pending');
    await deliver(rzp.processRefund(second[1]!.id));
    expect((await refundsOf(orderId))[0]!.status).toBe('processed');
    expect(await refundDocs(orderId)).toHaveLength(1);
    expect(await mailsTo('cancel.failed@example.com', 'order-cancelled')).toHaveLength(1);
  });

  it('is failed at once when Razorpay does not answer; the cancel stands', async () => {
    const { orderId, advance } = await paidOrder('cancel.down@example.com');
    rzp.mode = 'down';
    try {
      const res = await cancel(orderId, { reason: 'Customer asked', refundAmount: advance });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ order: { state: 'cancelled' }, refunds: [{ status: 'failed' }] });
    } finally {
      rzp.mode = 'ok';
    }
    expect((await refundsOf(orderId))[0]!.failureReason).toMatch(/Razorpay did not accept/);
  });
});

describe('a refund made in the Razorpay dashboard', () => {
  it("is recorded from refund.processed like the app's own: origin dashboard, its document, refund.recorded", async () => {
    const { orderId, advancePaymentId } = await paidOrder('dashboard.refund@example.com');
    const made = rzp.dashboardRefund(advancePaymentId, 2000);
    // refund.created alone moves nothing.
    expect((await deliver(rzp.refundWebhook('refund.created', made.id))).json()).toMatchObject({ status: 'ignored' });
    expect(await refundsOf(orderId)).toEqual([]);
    expect((await deliver(rzp.processRefund(made.id))).json()).toMatchObject({ status: 'processed' });
    const rows = await refundsOf(orderId);
    expect(rows).toEqual([
      expect.objectContaining({
        origin: 'dashboard',
        status: 'processed',
        amount: 2000,
        providerRefundId: made.id,
        providerPaymentId: advancePaymentId,
        documentId: expect.any(String),
      }),
    ]);
    expect(seen.recorded.filter((e) => e.orderPublicId === orderId)).toEqual([
      expect.objectContaining({
        origin: 'dashboard',
        amount: 2000,
        document: expect.objectContaining({ number: expect.stringMatching(/^RF\//) }),
      }),
    ]);
    // The order is not cancelled by it, and a cancel now refunds at most what is left.
    expect((await orderRow(orderId)).state).toBe('in_progress');
    const panel = (await get(`admin/orders/${orderId}/refunds`, owner)).json();
    expect(panel.refunds).toEqual([expect.objectContaining({ origin: 'dashboard', status: 'processed', reference: made.id })]);
    expect(panel.cancel.defaultRefund).toBe(panel.cancel.maxRefund);
    // A refund of a payment the app does not know is ignored.
    const stranger = rzp.dashboardRefund(advancePaymentId, 100);
    stranger.payment_id = 'pay_unknown123';
    expect((await deliver(rzp.refundWebhook('refund.processed', stranger.id))).json()).toMatchObject({ status: 'ignored' });
  });
});

describe('in test mode (the built-in checkout)', () => {
  it('processes the refund at once', async () => {
    const local = await buildTestApp({ ADMIN_EMAILS: 'boss@example.com' });
    try {
      const me = await loginAs(local, 'tester.cancel@example.com');
      const boss = await loginAs(local, 'boss@example.com', 'admin');
      const p = (url: string, who: Login, payload?: unknown) =>
        local.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: who.headers, payload: payload as object });
      const orderId = await payInstallment(local, me, { kind: 'advance' });
      const advance = (await local.deps.db.select().from(installments).where(eq(installments.kind, 'advance')))[0]!.amount;
      const res = await p(`admin/orders/${orderId}/cancel`, boss, { reason: 'Test order', refundAmount: advance });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().refunds).toEqual([expect.objectContaining({ amount: advance, status: 'processed' })]);
      const [doc] = await local.deps.db.select().from(invoices).where(eq(invoices.docKind, 'refund_voucher'));
      expect(doc).toMatchObject({ testMode: true, number: expect.stringMatching(/^TEST\//) });
      expect(
        await local.deps.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.toAddress, 'tester.cancel@example.com'), eq(mailOutbox.template, 'order-cancelled'))),
      ).toHaveLength(1);
    } finally {
      await local.close();
    }
  }, 120_000);
});
