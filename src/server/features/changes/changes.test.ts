import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { getOverview } from '../admin/overview.ts';
import { recordUiApproval } from '../delivery-date/record-ui-approval.ts';
import { sendDueNotices } from '../notices/send-notices.ts';
import { createDomainEvents } from '../../lib/domain-events.ts';
import { subscribeChanges } from './subscriptions.ts';
import { subscribeInvoices } from '../invoices/subscriptions.ts';
import type { AppDeps } from '../../deps.ts';

// Change requests priced and paid mid-project, and add-ons (docs/decisions/250-change-requests.md,
// 251-change-due-date.md): the routes end to end through the Razorpay fake, and every attack.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestApp;
let rzp: FakeRazorpay;
type Login = Awaited<ReturnType<typeof loginAs>>;
let owner: Login;
let staff: Login;

const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Login | null, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: who?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const post = (url: string, who: Login | null, payload: unknown = {}) => inject('POST', url, who, payload);
/** A raw JSON body, for numbers JSON.stringify cannot write (1e309). */
const postRaw = (url: string, who: Login, body: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/${url}`,
    headers: { ...who.headers, 'content-type': 'application/json' },
    payload: body,
  });

/** A customer with a paid advance in INR (plan price ₹76,415 = 7,641,500 paise). */
async function paidOrder(email: string) {
  const customer = await loginAs(t, email);
  const advance = await post('payment/create-order', customer, {
    kind: 'advance',
    acceptTerms: true,
    currency: 'INR',
  });
  expect(advance.statusCode, advance.body).toBe(200);
  const verified = await post('payment/verify-payment', customer, rzp.pay(advance.json().id));
  expect(verified.statusCode, verified.body).toBe(200);
  return { customer, orderId: verified.json().orderId as string };
}
const ask = async (
  who: Login,
  orderId: string,
  body: Record<string, unknown> = {
    title: 'Add a blog',
    description: 'A blog with categories.',
  },
) => {
  const r = await post(`orders/${orderId}/changes`, who, body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json().change as {
    id: string;
    state: string;
    amount: number | null;
    extraDays: number;
  };
};
const quote = (orderId: string, changeId: string, body: unknown, who: Login = owner) =>
  post(`admin/orders/${orderId}/changes/${changeId}/quote`, who, body);
const payChange = (who: Login, orderId: string, changeId: string, extra: Record<string, unknown> = {}) =>
  post('payment/create-order', who, {
    kind: 'change',
    orderId,
    changeId,
    acceptTerms: true,
    ...extra,
  });
const changesOf = async (who: Login, orderId: string) =>
  (await inject('GET', `orders/${orderId}/changes`, who)).json().changes as Record<string, unknown>[];
const statusOf = async (who: Login, orderId: string) => (await inject('GET', `status/getStatus/order/${orderId}`, who)).json();
const internalId = async (publicId: string) =>
  (await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [publicId]))[0]!.id;

beforeAll(async () => {
  rzp = await startFakeRazorpay();
  t = await buildTestApp({ ...rzp.env() });
  owner = await loginAs(t, 'change.owner@example.com', 'admin');
  staff = await loginAs(t, 'change.staff@example.com', 'staff');
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});

describe('a change request, quoted, accepted and paid', () => {
  it('asks, quotes ₹8,000 + 5 days, pays through verify-payment: accepted, due date +5, a document, a receipt, revenue', async () => {
    const { customer, orderId } = await paidOrder('change.happy@example.com');
    const id = await internalId(orderId);
    // The UI approval sets the due date first; the paid change then moves it.
    await t.deps.db.transaction((tx) => recordUiApproval(tx, id, new Date('2026-11-25T09:00:00Z'), 28));
    expect((await statusOf(customer, orderId)).dueDate).toBe('2026-12-23');

    const change = await ask(customer, orderId);
    expect(change).toMatchObject({
      state: 'requested',
      amount: null,
      extraDays: 0,
    });
    const overviewBefore = await getOverview(t.deps.database);
    expect(overviewBefore.changesWaiting).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          orderId,
          changeId: change.id,
          state: 'requested',
        }),
      ]),
    );

    const quoted = await quote(orderId, change.id, { amount: 800_000, extraDays: 5, note: 'Blog with 3 templates.' }, staff);
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(quoted.json().change).toMatchObject({
      state: 'quoted',
      amount: 800_000,
      currency: 'INR',
      extraDays: 5,
      note: 'Blog with 3 templates.',
    });

    const created = await payChange(customer, orderId, change.id);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      kind: 'change',
      orderId,
      changeId: change.id,
      amount: 800_000,
      currency: 'INR',
    });
    const paid = await post('payment/verify-payment', customer, rzp.pay(created.json().id));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      kind: 'change',
      orderId,
      duplicate: false,
    });

    const [after] = await changesOf(customer, orderId);
    expect(after).toMatchObject({
      state: 'accepted',
      amount: 800_000,
      createdBy: 'customer',
    });
    expect(after!.paidAt).toEqual(expect.any(String));
    expect(after!.invoiceId).toEqual(expect.any(String));
    const status = await statusOf(customer, orderId);
    expect(status.dueDate).toBe('2026-12-28');
    // The plan's installments are untouched.
    expect(status.remaining.state).toBe('due');

    // The acceptance is recorded like the checkout's terms.
    const [acc] = await t.deps.database.query<{
      accepted_at: Date | null;
      accepted_wording_hash: string | null;
      accepted_client_hash: string | null;
    }>('select accepted_at, accepted_wording_hash, accepted_client_hash from order_changes where id = $1', [change.id]);
    expect(acc!.accepted_at).not.toBeNull();
    expect(acc!.accepted_wording_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(acc!.accepted_client_hash).toMatch(/^[0-9a-f]{64}$/);

    // The document of the change, and the receipt that carries it.
    const [doc] = await t.deps.database.query<{
      amount: number;
      snapshot: { description: string; change?: { title: string } };
    }>('select amount::float8 as amount, snapshot from invoices where id = $1', [after!.invoiceId]);
    expect(Number(doc!.amount)).toBe(800_000);
    expect(doc!.snapshot.change?.title).toBe('Add a blog');
    const receipts = await t.deps.database.query<{ subject: string }>(
      `select subject from mail_outbox where to_address = 'change.happy@example.com' and template = 'payment-receipt' order by created_at`,
    );
    expect(receipts.map((r) => r.subject)).toEqual([expect.stringMatching(/Advance/), expect.stringMatching(/Change: Add a blog/)]);

    // The overview leaves test-checkout money out of the revenue and says how much it left out
    // (docs/decisions/320-order-ledger.md); nothing of this order waits any more.
    const overview = await getOverview(t.deps.database);
    const leftOut = (o: typeof overview) => o.moneyMoved!.testLeftOut.perCurrency.find((r) => r.currency === 'INR')?.received ?? 0;
    expect(leftOut(overview) - leftOut(overviewBefore)).toBe(800_000);
    expect(overview.moneyMoved!.testLeftOut.payments).toBe(overviewBefore.moneyMoved!.testLeftOut.payments + 1);
    expect(overview.revenue).toEqual(overviewBefore.revenue);
    expect(overview.changesWaiting.map((c) => c.changeId)).not.toContain(change.id);

    // A quote changed after acceptance: refused, nothing moves.
    expect((await quote(orderId, change.id, { amount: 900_000, extraDays: 5 })).statusCode).toBe(409);
    // Paying it again: refused.
    expect((await payChange(customer, orderId, change.id)).statusCode).toBe(409);
  });

  it('before the UI approval, the paid days are added when the approval sets the date', async () => {
    const { customer, orderId } = await paidOrder('change.early@example.com');
    const change = await ask(customer, orderId);
    expect((await quote(orderId, change.id, { amount: 500_000, extraDays: 7 })).statusCode).toBe(200);
    await post('payment/verify-payment', customer, rzp.pay((await payChange(customer, orderId, change.id)).json().id));
    expect((await statusOf(customer, orderId)).dueDate).toBeNull();
    const id = await internalId(orderId);
    await t.deps.db.transaction((tx) => recordUiApproval(tx, id, new Date('2026-11-25T09:00:00Z'), 28));
    expect((await statusOf(customer, orderId)).dueDate).toBe('2026-12-30');
  });

  it('the webhook settles a change like any payment (the browser never comes back)', async () => {
    const { customer, orderId } = await paidOrder('change.webhook@example.com');
    const change = await ask(customer, orderId);
    await quote(orderId, change.id, { amount: 300_000, extraDays: 0 });
    const created = (await payChange(customer, orderId, change.id)).json();
    const payment = rzp.pay(created.id);
    const delivery = rzp.webhook('payment.captured', {
      id: payment.razorpay_payment_id,
      order_id: created.id,
      amount: created.amount,
      currency: created.currency,
      status: 'captured',
    });
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook',
      headers: delivery.headers,
      payload: delivery.body,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    expect((await changesOf(customer, orderId))[0]).toMatchObject({
      state: 'accepted',
      amount: 300_000,
    });
  });

  it('from an add-on it arrives quoted at its price in the order currency; the customer pays it directly', async () => {
    const { customer, orderId } = await paidOrder('change.addon@example.com');
    const list = await inject('GET', 'addons?currency=INR', null);
    expect(list.statusCode).toBe(200);
    const seo = list.json().addons.find((a: { name: string }) => a.name === 'Advanced SEO');
    // $199 × 85 = ₹16,915.
    expect(seo).toMatchObject({
      amount: 1_691_500,
      currency: 'INR',
      extraDays: 5,
    });
    expect((await inject('GET', 'addons', null)).json()).toMatchObject({
      currency: 'USD',
    });
    expect((await inject('GET', 'addons?currency=XYZ', null)).statusCode).toBe(400);
    const change = await ask(customer, orderId, {
      title: 'Advanced SEO',
      addonId: seo.id,
    });
    expect(change).toMatchObject({
      state: 'quoted',
      amount: 1_691_500,
      extraDays: 5,
    });
    const paid = await post('payment/verify-payment', customer, rzp.pay((await payChange(customer, orderId, change.id)).json().id));
    expect(paid.json()).toMatchObject({ kind: 'change', duplicate: false });
    expect((await changesOf(customer, orderId))[0]).toMatchObject({
      state: 'accepted',
      addonId: seo.id,
    });
  });

  it('a founder-raised change marked included needs no payment; a declined quote; a withdrawn request', async () => {
    const { customer, orderId } = await paidOrder('change.included@example.com');
    const included = await post(`admin/orders/${orderId}/changes`, staff, {
      title: 'Fix the footer',
      description: 'On us.',
      included: true,
      extraDays: 2,
    });
    expect(included.statusCode, included.body).toBe(201);
    expect(included.json().change).toMatchObject({
      state: 'included',
      amount: 0,
      createdBy: 'agency',
    });
    expect((await payChange(customer, orderId, included.json().change.id)).statusCode).toBe(409);

    const declined = await post(`admin/orders/${orderId}/changes`, owner, {
      title: 'Hindi as well',
      amount: 600_000,
      extraDays: 4,
    });
    expect(declined.json().change).toMatchObject({
      state: 'quoted',
      amount: 600_000,
    });
    const d = await post(`orders/${orderId}/changes/${declined.json().change.id}/decline`, customer, { reason: 'Not this month.' });
    expect(d.statusCode, d.body).toBe(200);
    expect(d.json().change).toMatchObject({
      state: 'declined',
      declineReason: 'Not this month.',
    });
    expect((await payChange(customer, orderId, declined.json().change.id)).statusCode).toBe(409);
    expect(
      (
        await quote(orderId, declined.json().change.id, {
          amount: 500_000,
          extraDays: 1,
        })
      ).statusCode,
    ).toBe(409);

    // Withdraw: its author only (the customer cannot withdraw the agency's change).
    expect((await post(`orders/${orderId}/changes/${included.json().change.id}/withdraw`, customer)).statusCode).toBe(409);
    const mine = await ask(customer, orderId, { title: 'A map' });
    const w = await post(`orders/${orderId}/changes/${mine.id}/withdraw`, customer);
    expect(w.json().change).toMatchObject({ state: 'withdrawn' });
    expect((await payChange(customer, orderId, mine.id)).statusCode).toBe(409);

    // Audited: the founder's create and quote.
    const audit = await t.deps.database.query<{ action: string }>(
      `select action from admin_audit_log where entity = 'order_change' and entity_id = $1`,
      [declined.json().change.id],
    );
    expect(audit.map((a) => a.action)).toEqual(['order.change.create']);
  });
});

describe('attacks', () => {
  it("another customer's order, another customer's token, a draft: 404 everywhere", async () => {
    const { customer, orderId } = await paidOrder('change.victim@example.com');
    const change = await ask(customer, orderId);
    await quote(orderId, change.id, { amount: 100_000, extraDays: 1 });
    const thief = await loginAs(t, 'change.thief@example.com');
    expect((await inject('GET', `orders/${orderId}/changes`, thief)).statusCode).toBe(404);
    expect((await post(`orders/${orderId}/changes`, thief, { title: 'Mine now' })).statusCode).toBe(404);
    expect((await post(`orders/${orderId}/changes/${change.id}/decline`, thief)).statusCode).toBe(404);
    expect((await post(`orders/${orderId}/changes/${change.id}/withdraw`, thief)).statusCode).toBe(404);
    expect((await payChange(thief, orderId, change.id)).statusCode).toBe(404);
    expect((await post(`orders/${orderId}/changes`, null, { title: 'x' })).statusCode).toBe(401);
    // A change of one order paid through another order of the same customer: 404.
    const other = await paidOrder('change.thief2@example.com');
    expect((await payChange(other.customer, other.orderId, change.id)).statusCode).toBe(404);
  });

  it('paying an unquoted change: 409; acceptTerms missing: 400; an amount in the body must match the quote', async () => {
    const { customer, orderId } = await paidOrder('change.unquoted@example.com');
    const change = await ask(customer, orderId);
    expect((await payChange(customer, orderId, change.id)).statusCode).toBe(409);
    await quote(orderId, change.id, { amount: 250_000, extraDays: 3 });
    expect(
      (
        await post('payment/create-order', customer, {
          kind: 'change',
          orderId,
          changeId: change.id,
        })
      ).statusCode,
    ).toBe(400);
    expect((await payChange(customer, orderId, change.id, { amount: 1 })).statusCode).toBe(400);
    const ok = await payChange(customer, orderId, change.id, { amount: 2500 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().amount).toBe(250_000);
    expect(
      (
        await post('payment/create-order', customer, {
          kind: 'change',
          orderId,
          acceptTerms: true,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('two tabs paying the same change: one charge, the second kept for a refund', async () => {
    const { customer, orderId } = await paidOrder('change.twotabs@example.com');
    const change = await ask(customer, orderId);
    await quote(orderId, change.id, { amount: 400_000, extraDays: 2 });
    const tabs = await Promise.all([1, 2].map(() => payChange(customer, orderId, change.id)));
    expect(tabs.map((r) => r.statusCode)).toEqual([200, 200]);
    const answers = await Promise.all(tabs.map((r) => post('payment/verify-payment', customer, rzp.pay(r.json().id))));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers.map((r) => r.json().duplicate).sort()).toEqual([false, true]);
    const attempts = await t.deps.database.query<{
      state: string;
      refund_state: string | null;
    }>(
      `select p.state, p.refund_state from payment_attempts p join installments i on i.id = p.installment_id where i.change_id = $1 order by p.state`,
      [change.id],
    );
    expect(attempts).toEqual([
      { state: 'duplicate', refund_state: 'needed' },
      { state: 'paid', refund_state: null },
    ]);
    const status = await statusOf(customer, orderId);
    expect(status.dueDate).toBeNull();
    const [order] = await t.deps.database.query<{ change_days: number }>('select change_days from orders where public_id = $1', [orderId]);
    expect(order!.change_days).toBe(2); // moved once
    const docs = await t.deps.database.query<{ n: number }>(
      `select count(*)::int as n from invoices v join installments i on i.id = v.installment_id where i.change_id = $1`,
      [change.id],
    );
    expect(docs[0]!.n).toBe(1);
  });

  it('a change declined or re-quoted while its checkout was open: the payment is refunded, not accepted', async () => {
    const { customer, orderId } = await paidOrder('change.stale@example.com');
    const a = await ask(customer, orderId, { title: 'Stale quote' });
    await quote(orderId, a.id, { amount: 200_000, extraDays: 1 });
    const open = await payChange(customer, orderId, a.id);
    await quote(orderId, a.id, { amount: 300_000, extraDays: 1 });
    const late = await post('payment/verify-payment', customer, rzp.pay(open.json().id));
    expect(late.json()).toMatchObject({ duplicate: true });
    expect((await changesOf(customer, orderId))[0]).toMatchObject({
      state: 'quoted',
      amount: 300_000,
    });

    const b = await ask(customer, orderId, { title: 'Declined meanwhile' });
    await quote(orderId, b.id, { amount: 200_000, extraDays: 1 });
    const open2 = await payChange(customer, orderId, b.id);
    await post(`orders/${orderId}/changes/${b.id}/decline`, customer, {});
    expect((await post('payment/verify-payment', customer, rzp.pay(open2.json().id))).json()).toMatchObject({ duplicate: true });
    expect((await changesOf(customer, orderId))[1]).toMatchObject({
      state: 'declined',
    });
  });

  it('a customer cannot quote or mark included (admin routes: 403); staff may quote', async () => {
    const { customer, orderId } = await paidOrder('change.selfquote@example.com');
    const change = await ask(customer, orderId);
    expect((await quote(orderId, change.id, { amount: 1, extraDays: 0 }, customer)).statusCode).toBe(403);
    expect(
      (
        await post(`admin/orders/${orderId}/changes`, customer, {
          title: 'Free stuff',
          included: true,
        })
      ).statusCode,
    ).toBe(403);
    // Unknown fields on the customer's route are refused, not silently taken.
    expect(
      (
        await post(`orders/${orderId}/changes`, customer, {
          title: 'Free',
          included: true,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await post(`orders/${orderId}/changes`, customer, {
          title: 'Cheap',
          amount: 1,
        })
      ).statusCode,
    ).toBe(400);
    expect((await quote(orderId, change.id, { amount: 100_000, extraDays: 0 }, staff)).statusCode).toBe(200);
  });

  it('bad quotes: 0 without included, negative, over 10 × the plan price, 1e309, extra days -1 or 91', async () => {
    const { customer, orderId } = await paidOrder('change.badquote@example.com');
    const change = await ask(customer, orderId);
    const planPrice = 7_641_500;
    for (const body of [
      { amount: 0, extraDays: 1 },
      { amount: -100, extraDays: 1 },
      { amount: planPrice * 10 + 1, extraDays: 1 },
      { amount: 1.5, extraDays: 1 },
      { amount: 100_000, extraDays: -1 },
      { amount: 100_000, extraDays: 91 },
      { amount: '100000', extraDays: 1 },
    ]) {
      const r = await quote(orderId, change.id, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await postRaw(`admin/orders/${orderId}/changes/${change.id}/quote`, owner, '{"amount":1e309,"extraDays":1}')).statusCode).toBe(
      400,
    );
    expect(
      (
        await post(`admin/orders/${orderId}/changes`, owner, {
          title: 'Zero',
          amount: 0,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await post(`admin/orders/${orderId}/changes`, owner, {
          title: 'Both',
          amount: 100,
          included: true,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await quote(orderId, change.id, {
          amount: planPrice * 10,
          extraDays: 90,
        })
      ).statusCode,
    ).toBe(200);
    expect((await changesOf(customer, orderId))[0]).toMatchObject({
      state: 'quoted',
      amount: planPrice * 10,
      extraDays: 90,
    });
  });

  it('a delivered order takes no change from the customer (409); the founder may still quote one', async () => {
    const { customer, orderId } = await paidOrder('change.delivered@example.com');
    await t.deps.database.query(`update orders set state = 'delivered' where public_id = $1`, [orderId]);
    expect((await post(`orders/${orderId}/changes`, customer, { title: 'Late' })).statusCode).toBe(409);
    expect(
      (
        await post(`admin/orders/${orderId}/changes`, owner, {
          title: 'Support change',
          amount: 100_000,
          extraDays: 0,
        })
      ).statusCode,
    ).toBe(201);
  });

  it('the catalogue: the owner edits it, staff may not; HTML in a name is refused; inactive add-ons are neither listed nor requestable', async () => {
    const { customer, orderId } = await paidOrder('change.catalogue@example.com');
    expect((await inject('GET', 'admin/addons', staff)).statusCode).toBe(200);
    expect((await post('admin/addons', staff, { name: 'Staff add-on', price: 1000 })).statusCode).toBe(403);
    const seeded = (await inject('GET', 'admin/addons', owner)).json().addons as { id: string; name: string }[];
    expect(seeded.map((a) => a.name)).toEqual(expect.arrayContaining(['Advanced SEO', '10 extra screens']));
    expect(
      (
        await inject('PATCH', `admin/addons/${seeded[0]!.id}`, staff, {
          price: 1,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await post('admin/addons', owner, {
          name: '<img src=x onerror=alert(1)>',
          price: 1000,
        })
      ).statusCode,
    ).toBe(400);
    expect((await post('admin/addons', owner, { name: 'Blog', price: 0 })).statusCode).toBe(400);
    expect(
      (
        await post('admin/addons', owner, {
          name: 'Blog',
          price: 1000,
          extraDays: 91,
        })
      ).statusCode,
    ).toBe(400);
    const created = await post('admin/addons', owner, {
      name: 'Hindi version',
      description: 'Every page in Hindi.',
      price: 9900,
      extraDays: 6,
    });
    expect(created.statusCode, created.body).toBe(201);
    const addonId = created.json().addon.id as string;
    expect(
      (
        await inject('PATCH', `admin/addons/${addonId}`, owner, {
          name: 'Hindi <b>version</b>',
        })
      ).statusCode,
    ).toBe(400);
    const off = await inject('PATCH', `admin/addons/${addonId}`, owner, {
      active: false,
    });
    expect(off.json().addon).toMatchObject({
      active: false,
      name: 'Hindi version',
    });
    expect((await inject('GET', 'addons?currency=INR', null)).json().addons.map((a: { id: string }) => a.id)).not.toContain(addonId);
    expect(
      (
        await post(`orders/${orderId}/changes`, customer, {
          title: 'Hindi',
          addonId,
        })
      ).statusCode,
    ).toBe(404);
    const audit = await t.deps.database.query<{ action: string }>(
      `select action from admin_audit_log where entity = 'addon' and entity_id = $1 order by created_at`,
      [addonId],
    );
    expect(audit.map((a) => a.action)).toEqual(['addon.create', 'addon.update']);
  });
});

describe('what waits for whom (docs/decisions/260-change-events-and-waiting.md)', () => {
  const afterDelay = () => new Date(Date.now() + (t.deps.config.ORDER_NOTIFY_DELAY_SECONDS + 5) * 1000);
  const noticeMails = (like: string) =>
    t.deps.database.query<{ to_address: string; subject: string }>(
      "select to_address, subject from mail_outbox where template = 'order-notices' and text_body like $1 order by created_at",
      [`%${like}%`],
    );
  type Waiting = { kind: string; count: number };
  const customerWaiting = async (who: Login, orderId: string) =>
    (
      (await inject('GET', 'orders/actions', who)).json().orders as {
        orderId: string;
        waiting: Waiting[];
      }[]
    ).find((o) => o.orderId === orderId)!.waiting;
  const agencyWaiting = async (orderId: string) =>
    (
      (await inject('GET', 'admin/actions', owner)).json().items as {
        kind: string;
        orderId: string;
        count: number;
      }[]
    ).filter((i) => i.orderId === orderId);

  it("a requested change waits for the founder, a quoted one for the customer; each side is told in the order's batch", async () => {
    const { customer, orderId } = await paidOrder('change.waits@example.com');
    await ask(customer, orderId, { title: 'Add a gallery page' });
    const second = await ask(customer, orderId, { title: 'Add a map' });
    expect(await agencyWaiting(orderId)).toEqual([expect.objectContaining({ kind: 'change_requested', count: 2 })]);
    expect((await customerWaiting(customer, orderId)).find((w) => w.kind === 'change')).toBeUndefined();

    await sendDueNotices(t.deps, afterDelay());
    const toOwner = await noticeMails('asked for a change: "Add a map"');
    expect(toOwner.length).toBeGreaterThan(0);
    expect(toOwner.map((m) => m.to_address)).not.toContain('change.waits@example.com');

    const quoted = await quote(orderId, second.id, {
      amount: 500_000,
      extraDays: 3,
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(await agencyWaiting(orderId)).toEqual([expect.objectContaining({ kind: 'change_requested', count: 1 })]);
    expect(await customerWaiting(customer, orderId)).toEqual(expect.arrayContaining([{ kind: 'change', count: 1 }]));
    await sendDueNotices(t.deps, afterDelay());
    const toCustomer = await noticeMails('quoted and waits for your decision: "Add a map"');
    expect(toCustomer.map((m) => m.to_address)).toEqual(['change.waits@example.com']);

    // Declined: it waits for nobody; the founder's own quote is not news for the founder.
    const declined = await post(`orders/${orderId}/changes/${second.id}/decline`, customer, { reason: 'Not now' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await customerWaiting(customer, orderId)).find((w) => w.kind === 'change')).toBeUndefined();
    expect(await noticeMails('quoted and waits for your decision: "Add a gallery')).toEqual([]);

    // A quote the customer has read on the order page is not mailed to them.
    const [gallery] = await changesOf(customer, orderId);
    expect((await quote(orderId, gallery!.id as string, { amount: 200_000, extraDays: 1 })).statusCode).toBe(200);
    await changesOf(customer, orderId);
    await sendDueNotices(t.deps, afterDelay());
    expect(await noticeMails('quoted and waits for your decision: "Add a gallery')).toEqual([]);
  });

  it('the document follows the accepted change whatever order the subscribers were registered in', async () => {
    const { customer, orderId } = await paidOrder('change.order@example.com');
    const change = await ask(customer, orderId, { title: 'Add a FAQ page' });
    await quote(orderId, change.id, { amount: 300_000, extraDays: 2 });
    const created = await payChange(customer, orderId, change.id);
    expect(created.statusCode, created.body).toBe(200);
    // A second registry, the invoices' subscriber registered BEFORE the changes' one.
    const events = createDomainEvents(t.deps.db, t.app.log);
    const swapped = { ...t.deps, events } as AppDeps;
    subscribeInvoices(swapped);
    subscribeChanges(swapped);
    const [inst] = await t.deps.database.query<{ id: string; order_id: string }>(
      'select id, order_id from installments where change_id = $1',
      [change.id],
    );
    await events.transaction((tx) =>
      events.publish(tx, 'change.paid', {
        orderId: inst!.order_id,
        orderPublicId: orderId,
        customerEmail: 'change.order@example.com',
        changeId: change.id,
        title: 'Add a FAQ page',
        installmentId: inst!.id,
        paymentId: 'pay_swapped_order',
        amount: 300_000,
        currency: 'INR',
        extraDays: 2,
        paidAt: new Date(),
        testMode: true,
      }),
    );
    const [after] = await changesOf(customer, orderId);
    expect(after).toMatchObject({ state: 'accepted' });
    expect(after!.invoiceId).toEqual(expect.any(String));
  });
});
