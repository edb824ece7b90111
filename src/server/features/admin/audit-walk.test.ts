import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import type { TestCheckoutProvider } from '../../integrations/payments/test-checkout.ts';
import { createPaymentOrder } from '../payments/create-payment-order.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { reconcilePaymentsAsAdmin } from '../payments/reconcile-payments.ts';
import { settlePayment } from '../payments/settle-payment.ts';
import { registeredRoutes, type RegisteredRoute } from './route-walk.ts';
import { seedPaidOrder, seedRemainingPayment } from '../../../../tests/fixtures/paid-orders.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { PNG } from '../../../../tests/fixtures/file-bytes.ts';
import { seedDeliveredOrder } from '../../../../tests/fixtures/delivered-orders.ts';
import { insertOrder } from '../../../../tests/fixtures/maintenance-orders.ts';

// Every admin write is audited. This walks every route of the app's own route table
// (the one the authorization suite walks) that an admin may call and that is not a GET, makes one
// successful call, and asserts it left exactly one audit record by that admin. A write route added
// later without a call here fails the suite, and so does one that writes no record.

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface WriteCall {
  url: string;
  body?: unknown;
  /** Extra headers (a multipart upload's content type). */
  headers?: Record<string, string>;
  /**
   * The status this walk's app refuses the write with, for a write that needs an outside service
   * the walk does not start (Razorpay's settlements): the refusal must leave no record; the
   * successful write's record is tested beside the route, where the service's fake runs.
   */
  refusedWith?: number;
}

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
let calls: Record<string, () => Promise<WriteCall>>;

const auditCount = async () => (await t.deps.database.query<{ n: number }>('select count(*)::int as n from admin_audit_log'))[0]!.n;
const firstId = async (table: string) =>
  (await t.deps.database.query<{ id: string }>(`select id from ${table} order by created_at limit 1`))[0]!.id;

/** An order whose remaining installment was paid twice: the second payment is the duplicate to refund. */
async function duplicatePayment() {
  const { customer, orderId } = await seedPaidOrder(t, 'walk.twice@example.com');
  const tab1 = await createPaymentOrder(t.deps, customer.user, { kind: 'remaining', orderId });
  const tab2 = await createPaymentOrder(t.deps, customer.user, { kind: 'remaining', orderId });
  expect((await settlePayment(t.deps, { providerOrderId: tab1.id, paymentId: 'pay_walk_1' })).outcome).toBe('paid');
  expect((await settlePayment(t.deps, { providerOrderId: tab2.id, paymentId: 'pay_walk_2' })).outcome).toBe('duplicate');
  return { orderId, paymentId: 'pay_walk_2' };
}

/** Operations only admins may call, read from the app: the admin document has them, the public one not (decision 093). */
async function adminOnlyOperations() {
  const ops = (doc: { paths: Record<string, Record<string, unknown>> }) =>
    new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)));
  const full = ops((await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: owner.headers })).json());
  const pub = ops((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
  return new Set([...full].filter((op) => !pub.has(op)));
}

async function adminWriteRoutes(): Promise<RegisteredRoute[]> {
  const adminOnly = await adminOnlyOperations();
  return registeredRoutes(t.app).filter(
    (r) => r.method !== 'GET' && (r.url.startsWith('/api/v1/admin/') || adminOnly.has(`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`)),
  );
}

beforeAll(async () => {
  // Registered for GST, so that a maintenance plan charged without it can be repriced (docs/decisions/322-maintenance-plan-gst.md).
  t = await buildTestApp({
    TAX_REGIME: 'gst',
    SELLER_GSTIN: '29AAGCB7383J1Z4',
    SELLER_LEGAL_NAME: 'Walk Studio Pvt Ltd',
    SELLER_ADDRESS: '1 Walk Road, Bengaluru 560001',
  });
  owner = await loginAs(t, 'walk.boss@example.com', 'admin');
  const customer = await loginAs(t, 'walk.customer@example.com');
  const referrer = await loginAs(t, 'walk.referrer@example.com');
  const paid = await seedPaidOrder(t, 'walk.payer@example.com', { referrerUserId: referrer.user.id });
  await seedRemainingPayment(t, paid.customer, paid.orderId);
  const order = paid.orderId;
  await t.app.inject({ method: 'POST', url: '/api/v1/alert/sendEmail', payload: { email: 'walk.lead@example.com' } });
  await t.app.inject({
    method: 'POST',
    url: '/api/v1/contact/addContact',
    payload: { name: 'Walk Er', email: 'walk.contact@example.com', message: 'hi', phone_code: '+1', phone_number: '5551234', address: '' },
  });
  let couponId = '';
  let supportRequestId = '';
  calls = {
    'POST /api/v1/admin/coupons': async () => ({ url: '/api/v1/admin/coupons', body: { code: 'WALK10', percent: 10 } }),
    'PATCH /api/v1/admin/coupons/:id': async () => {
      couponId = (await t.deps.database.query<{ id: string }>("select id from coupons where code = 'WALK10'"))[0]!.id;
      return { url: `/api/v1/admin/coupons/${couponId}`, body: { percent: 12 } };
    },
    'POST /api/v1/admin/coupons/:id/deactivate': async () => ({ url: `/api/v1/admin/coupons/${couponId}/deactivate` }),
    'PUT /api/v1/admin/promotion': async () => ({ url: '/api/v1/admin/promotion', body: { couponCode: 'FIRSTWEB25' } }),
    'POST /api/v1/admin/customers/:id/sessions/revoke': async () => ({
      url: `/api/v1/admin/customers/${customer.user.id}/sessions/revoke`,
    }),
    'POST /api/v1/admin/orders/:id/stages/next': async () => ({ url: `/api/v1/admin/orders/${order}/stages/next`, body: { note: 'Walk' } }),
    'POST /api/v1/admin/orders/:id/stages/undo': async () => ({
      url: `/api/v1/admin/orders/${order}/stages/undo`,
      body: { reason: 'Too early' },
    }),
    // Without a deliveryUrl: with one, the call makes two changes and writes two records (tested in audit-in-transaction.test.ts).
    'POST /api/v1/tracker/order/:id/complete-next-stage': async () => ({
      url: `/api/v1/tracker/order/${order}/complete-next-stage`,
      body: { note: 'Walk' },
    }),
    'POST /api/v1/tracker/order/:id/undo-last-stage': async () => ({ url: `/api/v1/tracker/order/${order}/undo-last-stage` }),
    'PUT /api/v1/admin/orders/:id/delivery-link': async () => ({
      url: `/api/v1/admin/orders/${order}/delivery-link`,
      body: { url: 'https://walk.example.com' },
    }),
    'PUT /api/v1/admin/orders/:id/internal-note': async () => ({
      url: `/api/v1/admin/orders/${order}/internal-note`,
      body: { note: 'VIP' },
    }),
    'POST /api/v1/admin/orders/:id/refunds': async () => {
      const dup = await duplicatePayment();
      return { url: `/api/v1/admin/orders/${dup.orderId}/refunds`, body: { providerPaymentId: dup.paymentId, reference: 'REF-WALK' } };
    },
    // Cancel and refund (docs/decisions/321-cancel-and-refund.md): an order of its own, its advance
    // refunded (processed at once in test mode); then a failed refund asked again.
    'POST /api/v1/admin/orders/:id/cancel': async () => {
      const { orderId } = await seedPaidOrder(t, 'walk.cancel@example.com');
      return { url: `/api/v1/admin/orders/${orderId}/cancel`, body: { reason: 'Walk cancel', refundAmount: 1000 } };
    },
    'POST /api/v1/admin/refunds/:id/retry': async () => {
      const { orderId } = await seedPaidOrder(t, 'walk.retry@example.com');
      const [row] = await t.deps.database.query<{ id: string }>(
        `insert into payment_refunds (order_id, provider, provider_payment_id, amount, currency, status, origin, test_mode, failed_at, failure_reason)
         select o.id, 'test', i.provider_payment_id, 1000, o.currency, 'failed', 'cancel', true, now(), 'Walk failure'
           from orders o join installments i on i.order_id = o.id and i.kind = 'advance' where o.public_id = $1 returning id`,
        [orderId],
      );
      return { url: `/api/v1/admin/refunds/${row!.id}/retry` };
    },
    'PUT /api/v1/admin/orders/:id/reminders/pause': async () => ({
      url: `/api/v1/admin/orders/${order}/reminders/pause`,
      body: { paused: true },
    }),
    'POST /api/v1/admin/cashback/:id/paid': async () => ({
      url: `/api/v1/admin/cashback/${await firstId('cashback')}/paid`,
      body: { payoutReference: 'UPI-WALK' },
    }),
    'POST /api/v1/admin/leads/:id/handled': async () => ({ url: `/api/v1/admin/leads/${await firstId('leads')}/handled` }),
    'POST /api/v1/admin/contacts/:id/handled': async () => ({ url: `/api/v1/admin/contacts/${await firstId('contact_messages')}/handled` }),
    // Order messages (decision 155): the founder's message on the walk's order.
    'POST /api/v1/admin/orders/:id/messages': async () => ({
      url: `/api/v1/admin/orders/${order}/messages`,
      body: { text: 'Walk message' },
    }),
    'POST /api/v1/admin/orders/:orderId/files': async () => {
      const form = fileForm('design.png', PNG);
      return { url: `/api/v1/admin/orders/${order}/files`, body: form.payload, headers: form.headers };
    },
    'DELETE /api/v1/admin/orders/:orderId/files/:fileId': async () => ({
      url: `/api/v1/admin/orders/${order}/files/${await firstId('order_files')}`,
    }),
    // Design reviews (decision 150): a round on a fresh design, an answer on it, then resolving that comment.
    'POST /api/v1/admin/orders/:orderId/reviews': async () => {
      const form = fileForm('round.png', PNG);
      const up = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/orders/${order}/files`,
        headers: { ...owner.headers, ...form.headers },
        payload: form.payload,
      });
      return { url: `/api/v1/admin/orders/${order}/reviews`, body: { kind: 'ui', title: 'Walk round', fileIds: [up.json().file.id] } };
    },
    'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/comments': async () => {
      const [review] = await t.deps.database.query<{ id: string; file_id: string }>(
        'select r.id, f.file_id from order_reviews r join order_review_files f on f.review_id = r.id limit 1',
      );
      return {
        url: `/api/v1/admin/orders/${order}/reviews/${review!.id}/comments`,
        body: { fileId: review!.file_id, x: 0.5, y: 0.5, text: 'Walk answer' },
      };
    },
    'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/comments/:commentId/resolve': async () => {
      const [c] = await t.deps.database.query<{ id: string; review_id: string }>('select id, review_id from order_review_comments limit 1');
      return { url: `/api/v1/admin/orders/${order}/reviews/${c!.review_id}/comments/${c!.id}/resolve` };
    },
    // The live site (decision 240): a final round on the staging site, then the founder's site link.
    'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/site-link': async () => {
      const round = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/orders/${order}/reviews`,
        headers: owner.headers,
        payload: { kind: 'final', title: 'Walk site', fileIds: [], previewUrl: 'https://staging.walk.example/' },
      });
      return { url: `/api/v1/admin/orders/${order}/reviews/${round.json().review.id}/site-link` };
    },
    // Change requests and add-ons (decision 250): a change the founder raises, then quotes; an add-on created, then edited.
    'POST /api/v1/admin/orders/:orderId/changes': async () => ({
      url: `/api/v1/admin/orders/${order}/changes`,
      body: { title: 'Walk change', description: 'Two more pages' },
    }),
    'POST /api/v1/admin/orders/:orderId/changes/:changeId/quote': async () => ({
      url: `/api/v1/admin/orders/${order}/changes/${await firstId('order_changes')}/quote`,
      body: { amount: 500_000, extraDays: 3 },
    }),
    'POST /api/v1/admin/addons': async () => ({ url: '/api/v1/admin/addons', body: { name: 'Walk add-on', price: 10_000 } }),
    'PATCH /api/v1/admin/addons/:id': async () => {
      const [addon] = await t.deps.database.query<{ id: string }>("select id from addons where name = 'Walk add-on'");
      return { url: `/api/v1/admin/addons/${addon!.id}`, body: { extraDays: 2 } };
    },
    // The chat console (docs/decisions/347-chat-availability-canned-replies-csat.md): the switch, a canned reply added, edited, deleted.
    'PUT /api/v1/admin/chat/availability': async () => ({ url: '/api/v1/admin/chat/availability', body: { available: false } }),
    'POST /api/v1/admin/canned-replies': async () => ({
      url: '/api/v1/admin/canned-replies',
      body: { title: 'Walk', text: 'Walk reply', shortcut: '/walk' },
    }),
    'PATCH /api/v1/admin/canned-replies/:id': async () => ({
      url: `/api/v1/admin/canned-replies/${await firstId('chat_canned_replies')}`,
      body: { title: 'Walk 2' },
    }),
    'DELETE /api/v1/admin/canned-replies/:id': async () => ({
      url: `/api/v1/admin/canned-replies/${await firstId('chat_canned_replies')}`,
    }),
    // Support (decision 170): a request on a delivered order, answered, then resolved.
    'POST /api/v1/admin/support/:requestId/messages': async () => {
      const delivered = await seedDeliveredOrder(t, 'walk.support@example.com');
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${delivered.orderId}/support/requests`,
        headers: delivered.customer.headers,
        payload: { title: 'Walk request', description: 'Help', category: 'question' },
      });
      supportRequestId = res.json().request.id;
      return { url: `/api/v1/admin/support/${supportRequestId}/messages`, body: { text: 'Walk answer' } };
    },
    'POST /api/v1/admin/support/:requestId/state': async () => ({
      url: `/api/v1/admin/support/${supportRequestId}/state`,
      body: { state: 'resolved' },
    }),
    // Site care (decision 325): a URL watched (a public address literal: no DNS), removed, kept watching, a report run.
    'POST /api/v1/admin/orders/:orderId/sites': async () => ({
      url: `/api/v1/admin/orders/${order}/sites`,
      body: { url: 'http://93.184.215.14/walk' },
    }),
    'DELETE /api/v1/admin/orders/:orderId/sites/:siteId': async () => ({
      url: `/api/v1/admin/orders/${order}/sites/${(await t.deps.database.query<{ id: string }>(WALK_SITE_SQL))[0]!.id}`,
    }),
    'PUT /api/v1/admin/orders/:orderId/site-care': async () => ({
      url: `/api/v1/admin/orders/${order}/site-care`,
      body: { keepWatching: true },
    }),
    'POST /api/v1/admin/care-reports/run': async () => ({ url: '/api/v1/admin/care-reports/run', body: { month: '2026-01' } }),
    // Staff (decision 191): an invitation, then its removal.
    'POST /api/v1/admin/staff': async () => ({ url: '/api/v1/admin/staff', body: { email: 'walk.staff@example.com' } }),
    'DELETE /api/v1/admin/staff/:id': async () => ({ url: `/api/v1/admin/staff/${await firstId('staff_members')}` }),
    'POST /api/v1/admin/maintenance/subscriptions/:id/reprice': async () => {
      // A running plan opened at the old flat price (its amount the price, no GST on it).
      const buyer = await loginAs(t, 'walk.plan@example.com');
      const planOrder = await insertOrder(t.deps.db, buyer.user.id, 'delivered', 'INR', 400);
      const [sub] = await t.deps.database.query<{ id: string }>(
        `insert into maintenance_subscriptions (order_id, provider, provider_subscription_id, provider_plan_id, currency, amount, state, paid_until)
         values ($1, 'test', 'sub_test_walk', 'plan_test_INR_416500', 'INR', 416500, 'active', now() + interval '20 days') returning id`,
        [planOrder.id],
      );
      return { url: `/api/v1/admin/maintenance/subscriptions/${sub!.id}/reprice` };
    },
    'POST /api/v1/payment/reconcile': async () => {
      // A payment the browser never reported: the reconciliation finds and settles it.
      const buyer = await loginAs(t, 'walk.lost@example.com');
      const po = await createPaymentOrder(t.deps, buyer.user, { kind: 'advance', acceptTerms: true });
      (moneyContext(t.deps).provider as TestCheckoutProvider).pay(po.id);
      return { url: '/api/v1/payment/reconcile' };
    },
    // A scheduled pass's row that gave up, tried again (docs/decisions/339-isolated-job-passes.md).
    'POST /api/v1/admin/pass-rows/:id/retry': async () => {
      const [row] = await t.deps.database.query<{ id: string }>(
        `insert into pass_row_failures (pass, row_key, attempts, state, retry_at, last_error) values ('notices', 'walk', 5, ` +
          `'failed', now(), 'Walk failure') returning id`,
      );
      return { url: `/api/v1/admin/pass-rows/${row!.id}/retry` };
    },
    // Razorpay's settlements (decision 323): no keys here, so a 409; its record: payouts.test.ts.
    'POST /api/v1/admin/payouts/sync': async () => ({ url: '/api/v1/admin/payouts/sync', refusedWith: 409 }),
  };
});
afterAll(() => t.close());

const WALK_SITE_SQL = "select id from watched_sites where url = 'http://93.184.215.14/walk'";

describe('every admin write is audited', () => {
  it('finds the admin write routes, including admin-guarded ones outside /api/v1/admin', async () => {
    const walked = new Set((await adminWriteRoutes()).map((r) => `${r.method} ${r.url}`));
    expect(walked).toContain('POST /api/v1/tracker/order/:id/complete-next-stage');
    expect(walked).toContain('POST /api/v1/payment/reconcile');
    expect(walked).toContain('PUT /api/v1/admin/orders/:id/reminders/pause');
    expect(walked).not.toContain('POST /api/v1/payment/create-order');
  });

  it('each successful admin write leaves exactly one audit record, by that admin', async () => {
    const routes = await adminWriteRoutes();
    const order = Object.keys(calls);
    const missing = routes.map((r) => `${r.method} ${r.url}`).filter((k) => !calls[k]);
    expect(missing, 'admin write routes without a call in audit-walk.test.ts (add one, and audit the route)').toEqual([]);
    routes.sort((a, b) => order.indexOf(`${a.method} ${a.url}`) - order.indexOf(`${b.method} ${b.url}`));
    for (const r of routes) {
      const key = `${r.method} ${r.url}`;
      const call = await calls[key]!();
      const before = await auditCount();
      const res = await t.app.inject({
        method: r.method as Method,
        url: call.url,
        headers: { ...owner.headers, ...call.headers },
        payload: call.body as object | Buffer | undefined,
      });
      if (call.refusedWith) {
        expect(res.statusCode, `${key}: ${res.body.slice(0, 300)}`).toBe(call.refusedWith);
        expect((await auditCount()) - before, `${key} audit records of a refusal`).toBe(0);
        continue;
      }
      expect(res.statusCode, `${key}: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      expect(res.statusCode, `${key}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
      expect((await auditCount()) - before, `${key} audit records`).toBe(1);
      const [last] = await t.deps.database.query<{ actor_email: string; actor_role: string }>(
        'select actor_email, actor_role from admin_audit_log order by created_at desc, id desc limit 1',
      );
      expect(last!.actor_email, key).toBe('walk.boss@example.com');
      expect(last!.actor_role, key).toBe('admin');
    }
  });
});

describe('the two routes that were not audited', () => {
  it('pausing and resuming reminders are recorded with the state before and after', async () => {
    const { orderId } = await seedPaidOrder(t, 'walk.pause@example.com');
    const pause = (paused: boolean) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/admin/orders/${orderId}/reminders/pause`, headers: owner.headers, payload: { paused } });
    expect((await pause(true)).statusCode).toBe(200);
    expect((await pause(false)).statusCode).toBe(200);
    const rows = await t.deps.database.query<{ action: string; entity: string; before: unknown; after: unknown }>(
      'select action, entity, before, after from admin_audit_log where entity_id = $1 order by created_at, id',
      [orderId],
    );
    expect(rows).toEqual([
      { action: 'order.reminders.pause', entity: 'order', before: { paused: false }, after: { paused: true } },
      { action: 'order.reminders.resume', entity: 'order', before: { paused: true }, after: { paused: false } },
    ]);
  });

  it('a reconciliation is recorded with what it settled, in the same transaction as the settlements', async () => {
    const buyer = await loginAs(t, 'walk.lost2@example.com');
    const po = await createPaymentOrder(t.deps, buyer.user, { kind: 'advance', acceptTerms: true });
    (moneyContext(t.deps).provider as TestCheckoutProvider).pay(po.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/reconcile', headers: owner.headers });
    expect(res.json()).toMatchObject({ success: true, paid: 1 });
    const [row] = await t.deps.database.query<{ action: string; after: { paid: number; orders: string[] } }>(
      "select action, after from admin_audit_log where action = 'payment.reconcile' order by created_at desc, id desc limit 1",
    );
    const [settled] = await t.deps.database.query<{ public_id: string }>(
      "select o.public_id from orders o join users u on u.id = o.user_id where u.email = 'walk.lost2@example.com'",
    );
    expect(row!.after).toMatchObject({ paid: 1, orders: [settled!.public_id] });

    // An actor that does not exist: the record cannot be written, so nothing is settled either.
    const other = await loginAs(t, 'walk.lost3@example.com');
    const po3 = await createPaymentOrder(t.deps, other.user, { kind: 'advance', acceptTerms: true });
    (moneyContext(t.deps).provider as TestCheckoutProvider).pay(po3.id);
    await expect(reconcilePaymentsAsAdmin(t.deps, '00000000-0000-4000-8000-000000000000')).rejects.toThrow();
    const [state] = await t.deps.database.query<{ state: string }>('select state from payment_attempts where provider_order_id = $1', [
      po3.id,
    ]);
    expect(state!.state).toBe('created');
  });
});
