// A local stand-in for Razorpay: a real HTTP server implementing the subset of the
// Orders API we use, with Basic auth, plus helpers that act as the customer (pay → the checkout's
// three signed fields) and as Razorpay's webhook sender (signed body + event id).
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRazorpayOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string;
  status: 'created' | 'attempted' | 'paid';
  notes: Record<string, string>;
  created_at: number;
}
export interface FakeRazorpayPayment {
  id: string;
  entity: 'payment';
  order_id: string;
  amount: number;
  currency: string;
  status: 'captured' | 'failed' | 'authorized';
}

/** Razorpay's refund entity (https://razorpay.com/docs/api/refunds/). */
export interface FakeRazorpayRefund {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  notes: Record<string, string>;
  receipt: string | null;
  acquirer_data: { arn: string | null };
  created_at: number;
  batch_id: null;
  status: 'processed' | 'pending' | 'failed';
  speed_processed: 'normal' | 'instant';
  speed_requested: 'normal' | 'optimum';
}

/** Razorpay's plan entity (https://razorpay.com/docs/api/payments/subscriptions/create-plan/). */
export interface FakeRazorpayPlan {
  id: string;
  entity: 'plan';
  interval: number;
  period: 'daily' | 'weekly' | 'monthly' | 'yearly';
  item: { id: string; name: string; amount: number; currency: string; active: boolean };
  notes: Record<string, string>;
  created_at: number;
}

/** Razorpay's subscription entity (times in Unix seconds). */
export interface FakeRazorpaySubscription {
  id: string;
  entity: 'subscription';
  plan_id: string;
  status: 'created' | 'authenticated' | 'active' | 'pending' | 'halted' | 'cancelled' | 'completed';
  current_start: number | null;
  current_end: number | null;
  ended_at: number | null;
  quantity: number;
  notes: Record<string, string>;
  charge_at: number | null;
  /** `start_at` of the create call: the first charge's time (Unix seconds), or null for at once. */
  start_at: number | null;
  total_count: number;
  paid_count: number;
  remaining_count: number;
  customer_notify: boolean;
  /** Set by a cancel with cancel_at_cycle_end, or an update with schedule_change_at cycle_end: the status/plan stays until the cycle ends. */
  has_scheduled_changes: boolean;
  /** When a scheduled update goes live (the current cycle's end), or null. */
  change_scheduled_at: number | null;
  created_at: number;
}

/** Razorpay's settlement entity (https://razorpay.com/docs/api/settlements/): paise, created_at in Unix seconds. */
export interface FakeRazorpaySettlement {
  id: string;
  entity: 'settlement';
  amount: number;
  status: 'created' | 'processed' | 'failed';
  fees: number;
  tax: number;
  utr: string;
  created_at: number;
}

/** One line of the settlement recon (https://razorpay.com/docs/api/settlements/fetch-recon/). */
export interface FakeRazorpayReconItem {
  entity_id: string;
  type: 'payment' | 'refund' | 'adjustment' | 'transfer';
  debit: number;
  credit: number;
  amount: number;
  currency: string;
  fee: number;
  tax: number;
  on_hold: boolean;
  settled: boolean;
  created_at: number;
  settled_at: number;
  settlement_id: string;
  posted_at: number | null;
  credit_type: string;
  description: string | null;
  notes: string | null;
  payment_id: string | null;
  settlement_utr: string;
  order_id: string | null;
  order_receipt: string | null;
  method: string | null;
  card_network: string | null;
  card_issuer: string | null;
  card_type: string | null;
  dispute_id: string | null;
}

export interface FakeSubscriptionCharge {
  payment: FakeRazorpayPayment;
  /** Checkout's handler fields for a first charge, signed over payment_id|subscription_id. */
  checkout: { razorpay_payment_id: string; razorpay_subscription_id: string; razorpay_signature: string };
}

export interface FakeRazorpay {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  orders: Map<string, FakeRazorpayOrder>;
  /** 'down' refuses with 503, 'slow' answers after `slowMs`. */
  mode: 'ok' | 'down' | 'slow';
  slowMs: number;
  /**
   * Runs while an order is being created, before Razorpay answers (then cleared): what happens on the
   * app's side while its checkout waits for the provider (a re-quote, docs/decisions/332-change-quote-version.md).
   */
  whileCreatingOrder: (() => Promise<void>) | null;
  requests: { method: string; path: string; authorized: boolean }[];
  /** The customer pays an order: returns the checkout handler's three fields, signed. */
  pay(
    orderId: string,
    opts?: { status?: FakeRazorpayPayment['status'] },
  ): { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
  /** A signed webhook delivery for an event about a payment. */
  webhook(
    event: string,
    payment: FakeRazorpayPayment | { order_id: string; id: string; amount: number; currency: string; status: string },
    eventId?: string,
  ): { body: string; headers: Record<string, string> };
  paymentsOf(orderId: string): FakeRazorpayPayment[];
  /** The app's environment that points the Razorpay adapter at this fake (keys, secret, API URL). */
  env(): Record<'RAZORPAY_KEY_ID' | 'RAZORPAY_KEY_SECRET' | 'RAZORPAY_WEBHOOK_SECRET' | 'RAZORPAY_API_URL', string>;
  /**
   * Refunds made through POST /v1/payments/:id/refund (or `dashboardRefund`), newest last. As
   * Razorpay: a normal-speed refund with live keys is `pending` until processed; with test keys
   * (`rzp_test_…`) it is `processed` at once.
   */
  refunds: FakeRazorpayRefund[];
  /** A signed `refund.*` webhook with the refund's entity as it is now (and its payment). */
  refundWebhook(
    event: 'refund.created' | 'refund.processed' | 'refund.failed',
    refundId: string,
    eventId?: string,
  ): { body: string; headers: Record<string, string> };
  /** Razorpay processes a pending refund (the money left): its status moves, and the signed refund.processed is returned. */
  processRefund(refundId: string): { body: string; headers: Record<string, string> };
  /** A pending refund fails at the bank: its status moves, and the signed refund.failed is returned. */
  failRefund(refundId: string): { body: string; headers: Record<string, string> };
  /** The merchant refunds from Razorpay's dashboard (no API call of the app's): a pending refund. */
  dashboardRefund(paymentId: string, amount: number): FakeRazorpayRefund;
  plans: Map<string, FakeRazorpayPlan>;
  subscriptions: Map<string, FakeRazorpaySubscription>;
  /** Every POST /v1/subscriptions/:id/cancel body, in order. */
  cancellations: { subscriptionId: string; cancelAtCycleEnd: boolean }[];
  /** Every accepted PATCH /v1/subscriptions/:id (update), in order. */
  updates: { subscriptionId: string; planId: string; scheduleChangeAt: 'now' | 'cycle_end' }[];
  /** Updates waiting for the cycle's end, by subscription: the plan the next cycle is charged. */
  scheduledPlans: Map<string, string>;
  /**
   * One charge of a subscription, as Razorpay makes it: the first (the customer authorising in
   * Checkout) starts the first month and activates; each later one moves the cycle a month on.
   */
  chargeSubscription(subscriptionId: string): FakeSubscriptionCharge;
  /**
   * The customer completes Checkout for a subscription with a future start_at: Razorpay only
   * authorises (the card is mandated, nothing is charged) and the status is authenticated. The
   * signed fields are Checkout's, over the authorisation payment's id. Refuses a subscription without start_at.
   */
  authoriseSubscription(subscriptionId: string): FakeSubscriptionCharge['checkout'];
  /** A signed `subscription.*` webhook with the subscription's entity as it is now (or `entity` overrides). */
  subscriptionWebhook(
    event: string,
    subscriptionId: string,
    opts?: { payment?: FakeRazorpayPayment; eventId?: string; createdAt?: number; entity?: Partial<FakeRazorpaySubscription> },
  ): { body: string; headers: Record<string, string> };
  /** Settlements GET /v1/settlements serves (the test fills it). */
  settlements: FakeRazorpaySettlement[];
  /** Recon lines GET /v1/settlements/recon/combined serves by their settled_at (the test fills it). */
  reconItems: FakeRazorpayReconItem[];
  /**
   * Settles transactions as Razorpay does: one settlement whose amount is their credits less their
   * debits, fees and tax the sums of theirs; each line gets its settlement id, UTR and settled_at.
   */
  settle(
    at: Date,
    lines: {
      entityId: string;
      type: FakeRazorpayReconItem['type'];
      amount: number;
      fee?: number;
      tax?: number;
      orderId?: string | null;
      paymentId?: string | null;
    }[],
    opts?: { utr?: string },
  ): FakeRazorpaySettlement;
  close(): Promise<void>;
}

/**
 * A stand-in for checkout.js: `new Razorpay(options).open()` "pays" the order by loading a script
 * from this fake (allowed by the app's CSP, which trusts the checkout origin) and calls
 * `options.handler` with the three signed fields, as the real checkout does after a payment.
 */
const CHECKOUT_JS = (origin: string) => `(() => {
  window.Razorpay = function (options) {
    this.open = function () {
      window.__fakeRazorpayDone = function (result) {
        if (result) options.handler(result); else if (options.modal && options.modal.ondismiss) options.modal.ondismiss();
      };
      const s = document.createElement('script');
      const which = options.subscription_id
        ? 'subscription_id=' + encodeURIComponent(options.subscription_id)
        : 'order_id=' + encodeURIComponent(options.order_id);
      s.src = ${JSON.stringify(origin)} + '/v1/checkout/pay.js?' + which + '&key=' + encodeURIComponent(options.key);
      document.head.appendChild(s);
    };
  };
})();`;

const sendScript = (res: ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'application/javascript', 'cache-control': 'no-store' });
  res.end(body);
};

const rid = (prefix: string) => `${prefix}_${randomBytes(7).toString('base64url').replace(/[-_]/g, 'x')}`;

export async function startFakeRazorpay(
  opts: { port?: number; keyId?: string; keySecret?: string; webhookSecret?: string } = {},
): Promise<FakeRazorpay> {
  const keyId = opts.keyId ?? 'rzp_test_fakekey';
  const keySecret = opts.keySecret ?? randomBytes(16).toString('hex');
  const webhookSecret = opts.webhookSecret ?? randomBytes(16).toString('hex');
  const orders = new Map<string, FakeRazorpayOrder>();
  const payments = new Map<string, FakeRazorpayPayment[]>();
  const expectedAuth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const bad = (res: ServerResponse, status: number, description: string) =>
    send(res, status, { error: { code: status === 401 ? 'BAD_REQUEST_ERROR' : 'BAD_REQUEST_ERROR', description } });

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => resolve(data));
    });

  const newRefund = (
    payment: FakeRazorpayPayment,
    amount: number,
    o: { notes: Record<string, string>; receipt: string | null; speed: 'normal' | 'optimum' },
  ): FakeRazorpayRefund => ({
    id: rid('rfnd'),
    entity: 'refund',
    amount,
    currency: payment.currency,
    payment_id: payment.id,
    notes: o.notes,
    receipt: o.receipt,
    acquirer_data: { arn: null },
    created_at: Math.floor(Date.now() / 1000),
    batch_id: null,
    // Razorpay's test mode moves no money and processes at once; a live normal refund is pending.
    status: keyId.startsWith('rzp_test_') ? 'processed' : 'pending',
    speed_processed: 'normal',
    speed_requested: o.speed,
  });

  const fake: FakeRazorpay = {
    url: '',
    keyId,
    keySecret,
    webhookSecret,
    orders,
    mode: 'ok',
    slowMs: 15_000,
    whileCreatingOrder: null,
    requests: [],
    env() {
      return { RAZORPAY_KEY_ID: keyId, RAZORPAY_KEY_SECRET: keySecret, RAZORPAY_WEBHOOK_SECRET: webhookSecret, RAZORPAY_API_URL: fake.url };
    },
    pay(orderId, o = {}) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`fake razorpay: no order ${orderId}`);
      const p: FakeRazorpayPayment = {
        id: rid('pay'),
        entity: 'payment',
        order_id: orderId,
        amount: order.amount,
        currency: order.currency,
        status: o.status ?? 'captured',
      };
      payments.set(orderId, [...(payments.get(orderId) ?? []), p]);
      if (p.status === 'captured') Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0 });
      const signature = createHmac('sha256', keySecret).update(`${orderId}|${p.id}`).digest('hex');
      return { razorpay_order_id: orderId, razorpay_payment_id: p.id, razorpay_signature: signature };
    },
    webhook(event, payment, eventId = rid('evt')) {
      const body = JSON.stringify({
        entity: 'event',
        account_id: 'acc_fake',
        event,
        contains: ['payment'],
        payload: {
          payment: { entity: { entity: 'payment', ...payment } },
          order: { entity: orders.get(payment.order_id) ?? { id: payment.order_id } },
        },
        created_at: Math.floor(Date.now() / 1000),
      });
      const signature = createHmac('sha256', webhookSecret).update(body).digest('hex');
      return { body, headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': eventId } };
    },
    paymentsOf: (orderId) => payments.get(orderId) ?? [],
    refunds: [],
    refundWebhook(event, refundId, eventId = rid('evt')) {
      const refund = fake.refunds.find((r) => r.id === refundId);
      if (!refund) throw new Error(`fake razorpay: no refund ${refundId}`);
      const payment = [...payments.values()].flat().find((p) => p.id === refund.payment_id);
      const body = JSON.stringify({
        entity: 'event',
        account_id: 'acc_fake',
        event,
        contains: ['refund', 'payment'],
        payload: { refund: { entity: { ...refund } }, payment: { entity: { entity: 'payment', ...payment } } },
        created_at: Math.floor(Date.now() / 1000),
      });
      const signature = createHmac('sha256', webhookSecret).update(body).digest('hex');
      return { body, headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': eventId } };
    },
    processRefund(refundId) {
      const refund = fake.refunds.find((r) => r.id === refundId);
      if (!refund) throw new Error(`fake razorpay: no refund ${refundId}`);
      refund.status = 'processed';
      refund.acquirer_data = { arn: `ARN${randomBytes(6).toString('hex')}` };
      return fake.refundWebhook('refund.processed', refundId);
    },
    failRefund(refundId) {
      const refund = fake.refunds.find((r) => r.id === refundId);
      if (!refund) throw new Error(`fake razorpay: no refund ${refundId}`);
      refund.status = 'failed';
      return fake.refundWebhook('refund.failed', refundId);
    },
    dashboardRefund(paymentId, amount) {
      const payment = [...payments.values()].flat().find((p) => p.id === paymentId);
      if (!payment) throw new Error(`fake razorpay: no payment ${paymentId}`);
      const refund = newRefund(payment, amount, { notes: {}, receipt: null, speed: 'normal' });
      fake.refunds.push(refund);
      return refund;
    },
    plans: new Map(),
    subscriptions: new Map(),
    cancellations: [],
    settlements: [],
    reconItems: [],
    settle: (at, lines, o) => settleLines(fake, at, lines, o?.utr),
    updates: [],
    scheduledPlans: new Map(),
    chargeSubscription(subscriptionId) {
      const sub = fake.subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`fake razorpay: no subscription ${subscriptionId}`);
      // The first charge of a subscription with a start_at is at that time (the Checkout only authorised).
      const start = sub.current_end ?? sub.start_at ?? Math.floor(Date.now() / 1000);
      // An update scheduled for the cycle's end goes live with the cycle that starts there.
      const scheduled = fake.scheduledPlans.get(subscriptionId);
      if (scheduled && sub.change_scheduled_at !== null && start >= sub.change_scheduled_at) {
        Object.assign(sub, { plan_id: scheduled, has_scheduled_changes: false, change_scheduled_at: null });
        fake.scheduledPlans.delete(subscriptionId);
      }
      const plan = fake.plans.get(sub.plan_id)!;
      const end = Math.floor(addMonthUtc(new Date(start * 1000)).getTime() / 1000);
      // Each charge is paid against an order Razorpay makes for it.
      const orderId = rid('order');
      const payment: FakeRazorpayPayment = {
        id: rid('pay'),
        entity: 'payment',
        order_id: orderId,
        amount: plan.item.amount,
        currency: plan.item.currency,
        status: 'captured',
      };
      payments.set(orderId, [payment]);
      Object.assign(sub, {
        status: 'active',
        current_start: start,
        current_end: end,
        charge_at: end,
        paid_count: sub.paid_count + 1,
        remaining_count: sub.total_count - sub.paid_count - 1,
      });
      const signature = createHmac('sha256', keySecret).update(`${payment.id}|${subscriptionId}`).digest('hex');
      return {
        payment,
        checkout: { razorpay_payment_id: payment.id, razorpay_subscription_id: subscriptionId, razorpay_signature: signature },
      };
    },
    authoriseSubscription(subscriptionId) {
      const sub = fake.subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`fake razorpay: no subscription ${subscriptionId}`);
      if (!sub.start_at) throw new Error(`fake razorpay: ${subscriptionId} starts at once; its Checkout charges (chargeSubscription)`);
      sub.status = 'authenticated';
      const paymentId = rid('pay');
      const signature = createHmac('sha256', keySecret).update(`${paymentId}|${subscriptionId}`).digest('hex');
      return { razorpay_payment_id: paymentId, razorpay_subscription_id: subscriptionId, razorpay_signature: signature };
    },
    subscriptionWebhook(event, subscriptionId, o = {}) {
      const sub = fake.subscriptions.get(subscriptionId) ?? ({ id: subscriptionId } as FakeRazorpaySubscription);
      const body = JSON.stringify({
        entity: 'event',
        account_id: 'acc_fake',
        event,
        contains: o.payment ? ['subscription', 'payment'] : ['subscription'],
        payload: {
          subscription: { entity: { ...sub, ...o.entity } },
          ...(o.payment ? { payment: { entity: o.payment } } : {}),
        },
        created_at: o.createdAt ?? Math.floor(Date.now() / 1000),
      });
      const signature = createHmac('sha256', webhookSecret).update(body).digest('hex');
      return {
        body,
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': o.eventId ?? rid('evt') },
      };
    },
    close: async () => {},
  };

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const authorized = req.headers.authorization === expectedAuth;
    fake.requests.push({ method: req.method ?? 'GET', path, authorized });
    // The browser side (checkout.js stand-in): no API key, like Razorpay's public checkout script.
    if (req.method === 'GET' && path === '/v1/checkout.js') return sendScript(res, CHECKOUT_JS(fake.url));
    if (req.method === 'GET' && path === '/v1/checkout/pay.js' && new URL(req.url ?? '/', fake.url).searchParams.has('subscription_id')) {
      const subId = new URL(req.url ?? '/', fake.url).searchParams.get('subscription_id') ?? '';
      if (fake.subscriptions.get(subId)?.status !== 'created') return sendScript(res, 'window.__fakeRazorpayDone(null);');
      return sendScript(res, `window.__fakeRazorpayDone(${JSON.stringify(fake.chargeSubscription(subId).checkout)});`);
    }
    if (req.method === 'GET' && path === '/v1/checkout/pay.js') {
      const orderId = new URL(req.url ?? '/', fake.url).searchParams.get('order_id') ?? '';
      if (!orders.has(orderId)) return sendScript(res, 'window.__fakeRazorpayDone(null);');
      return sendScript(res, `window.__fakeRazorpayDone(${JSON.stringify(fake.pay(orderId))});`);
    }
    if (fake.mode === 'down') return send(res, 503, { error: { code: 'SERVER_ERROR', description: 'Service unavailable' } });
    if (fake.mode === 'slow') await new Promise((r) => setTimeout(r, fake.slowMs));
    if (!authorized) return bad(res, 401, 'The api key provided is invalid');
    if (req.method === 'POST' && path === '/v1/orders') {
      let body: { amount?: unknown; currency?: unknown; receipt?: unknown; notes?: Record<string, string> };
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return bad(res, 400, 'invalid JSON');
      }
      if (!Number.isInteger(body.amount) || (body.amount as number) < 100) return bad(res, 400, 'The amount must be atleast INR 1.00');
      if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency)) return bad(res, 400, 'The currency is invalid');
      if (typeof body.receipt !== 'string' || body.receipt.length > 40)
        return bad(res, 400, 'receipt: the length must be no more than 40.');
      const order: FakeRazorpayOrder = {
        id: rid('order'),
        entity: 'order',
        amount: body.amount as number,
        amount_paid: 0,
        amount_due: body.amount as number,
        currency: body.currency,
        receipt: body.receipt,
        status: 'created',
        notes: body.notes ?? {},
        created_at: Math.floor(Date.now() / 1000),
      };
      const meanwhile = fake.whileCreatingOrder;
      fake.whileCreatingOrder = null;
      if (meanwhile) await meanwhile();
      orders.set(order.id, order);
      return send(res, 200, order);
    }
    const refundOf = /^\/v1\/payments\/([^/]+)\/refund$/.exec(path);
    if (req.method === 'POST' && refundOf) {
      // As Razorpay: only a captured payment, at most what is left of it; amount defaults to all of it.
      const paymentId = decodeURIComponent(refundOf[1]!);
      const payment = [...payments.values()].flat().find((p) => p.id === paymentId);
      if (!payment) return bad(res, 400, 'The id provided does not exist');
      if (payment.status !== 'captured') return bad(res, 400, 'The payment has not been captured');
      let body: { amount?: unknown; speed?: unknown; receipt?: unknown; notes?: Record<string, string> };
      try {
        body = JSON.parse((await readBody(req)) || '{}');
      } catch {
        return bad(res, 400, 'invalid JSON');
      }
      const refunded = fake.refunds.filter((r) => r.payment_id === paymentId && r.status !== 'failed').reduce((s, r) => s + r.amount, 0);
      const amount = body.amount === undefined ? payment.amount - refunded : body.amount;
      if (!Number.isInteger(amount) || (amount as number) < 100) return bad(res, 400, 'The amount must be atleast INR 1.00');
      if ((amount as number) > payment.amount - refunded)
        return bad(res, 400, 'The total refund amount is greater than the refund payment amount');
      // A failed refund gives its amount back to the payment (it can be asked again).
      const refund = newRefund(payment, amount as number, {
        notes: body.notes ?? {},
        receipt: typeof body.receipt === 'string' ? body.receipt : null,
        speed: body.speed === 'optimum' ? 'optimum' : 'normal',
      });
      fake.refunds.push(refund);
      return send(res, 200, refund);
    }
    const subscriptionAnswer = await subscriptionsApi(fake, req, path, readBody);
    if (subscriptionAnswer) return send(res, subscriptionAnswer.status, subscriptionAnswer.body);
    const settlementAnswer = settlementsApi(fake, req, path);
    if (settlementAnswer) return send(res, settlementAnswer.status, settlementAnswer.body);
    const m = /^\/v1\/orders\/([^/]+)(\/payments)?$/.exec(path);
    if (req.method === 'GET' && m) {
      const order = orders.get(decodeURIComponent(m[1]!));
      if (!order) return bad(res, 400, 'The id provided does not exist');
      if (m[2]) {
        const items = payments.get(order.id) ?? [];
        return send(res, 200, { entity: 'collection', count: items.length, items });
      }
      return send(res, 200, order);
    }
    return bad(res, 404, 'The requested URL was not found on the server.');
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

const addMonthUtc = (d: Date) => {
  const next = new Date(d);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

const apiError = (status: number, description: string) => ({ status, body: { error: { code: 'BAD_REQUEST_ERROR', description } } });

/**
 * The Subscriptions API subset (https://razorpay.com/docs/api/payments/subscriptions/): plans,
 * subscriptions, fetch, update (PATCH), cancel. Returns null for any other path.
 */
async function subscriptionsApi(
  fake: FakeRazorpay,
  req: IncomingMessage,
  path: string,
  readBody: (req: IncomingMessage) => Promise<string>,
): Promise<{ status: number; body: unknown } | null> {
  const json = async () => {
    try {
      return JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
    } catch {
      return null;
    }
  };
  const now = Math.floor(Date.now() / 1000);
  if (req.method === 'POST' && path === '/v1/plans') {
    const b = await json();
    if (!b) return apiError(400, 'invalid JSON');
    const item = (b.item ?? {}) as { name?: unknown; amount?: unknown; currency?: unknown };
    if (!['daily', 'weekly', 'monthly', 'yearly'].includes(String(b.period))) return apiError(400, 'The period field is invalid.');
    if (!Number.isInteger(b.interval) || (b.interval as number) < 1) return apiError(400, 'The interval must be at least 1.');
    if (typeof item.name !== 'string' || !item.name) return apiError(400, 'The item name field is required.');
    if (!Number.isInteger(item.amount) || (item.amount as number) < 100) return apiError(400, 'The amount must be atleast INR 1.00');
    if (typeof item.currency !== 'string' || !/^[A-Z]{3}$/.test(item.currency)) return apiError(400, 'The currency is invalid');
    const plan: FakeRazorpayPlan = {
      id: rid('plan'),
      entity: 'plan',
      interval: b.interval as number,
      period: b.period as FakeRazorpayPlan['period'],
      item: { id: rid('item'), name: item.name, amount: item.amount as number, currency: item.currency, active: true },
      notes: (b.notes as Record<string, string>) ?? {},
      created_at: now,
    };
    fake.plans.set(plan.id, plan);
    return { status: 200, body: plan };
  }
  if (req.method === 'POST' && path === '/v1/subscriptions') {
    const b = await json();
    if (!b) return apiError(400, 'invalid JSON');
    if (typeof b.plan_id !== 'string' || !fake.plans.has(b.plan_id)) return apiError(400, 'The id provided does not exist');
    if (!Number.isInteger(b.total_count) || (b.total_count as number) < 1) return apiError(400, 'The total count field is required.');
    if (b.start_at !== undefined && (!Number.isInteger(b.start_at) || (b.start_at as number) <= now))
      return apiError(400, 'start_at should be a future timestamp');
    const startAt = (b.start_at as number | undefined) ?? null;
    const sub: FakeRazorpaySubscription = {
      id: rid('sub'),
      entity: 'subscription',
      plan_id: b.plan_id,
      status: 'created',
      current_start: null,
      current_end: null,
      ended_at: null,
      quantity: 1,
      notes: (b.notes as Record<string, string>) ?? {},
      charge_at: startAt,
      start_at: startAt,
      total_count: b.total_count as number,
      paid_count: 0,
      remaining_count: b.total_count as number,
      customer_notify: b.customer_notify !== 0 && b.customer_notify !== false,
      has_scheduled_changes: false,
      change_scheduled_at: null,
      created_at: now,
    };
    fake.subscriptions.set(sub.id, sub);
    return { status: 200, body: sub };
  }
  const one = /^\/v1\/subscriptions\/([^/]+)(\/cancel)?$/.exec(path);
  if (!one) return null;
  const sub = fake.subscriptions.get(decodeURIComponent(one[1]!));
  if (!sub) return apiError(400, 'The id provided does not exist');
  if (req.method === 'GET' && !one[2]) return { status: 200, body: sub };
  // https://razorpay.com/docs/api/payments/subscriptions/update-subscription/ — a new plan now or at the cycle's end.
  if (req.method === 'PATCH' && !one[2]) {
    const b = await json();
    if (!b) return apiError(400, 'invalid JSON');
    if (sub.status !== 'authenticated' && sub.status !== 'active')
      return apiError(400, `Subscription cannot be updated in ${sub.status} status.`);
    if (b.plan_id !== undefined && (typeof b.plan_id !== 'string' || !fake.plans.has(b.plan_id)))
      return apiError(400, 'The id provided does not exist');
    const at = b.schedule_change_at ?? 'now';
    if (at !== 'now' && at !== 'cycle_end')
      return apiError(400, 'The schedule change at field is invalid. It should be one of now, cycle_end.');
    if (typeof b.plan_id !== 'string') return apiError(400, 'Nothing to update.');
    const oldPlan = fake.plans.get(sub.plan_id)!;
    if (fake.plans.get(b.plan_id)!.period !== oldPlan.period || fake.plans.get(b.plan_id)!.item.currency !== oldPlan.item.currency)
      return apiError(400, 'The new plan must have the same period and currency.');
    fake.updates.push({ subscriptionId: sub.id, planId: b.plan_id, scheduleChangeAt: at });
    if (at === 'now') Object.assign(sub, { plan_id: b.plan_id });
    else {
      fake.scheduledPlans.set(sub.id, b.plan_id);
      Object.assign(sub, { has_scheduled_changes: true, change_scheduled_at: sub.current_end ?? sub.start_at ?? now });
    }
    return { status: 200, body: sub };
  }
  if (req.method === 'POST' && one[2]) {
    const b = await json();
    if (!b) return apiError(400, 'invalid JSON');
    if (sub.status === 'cancelled' || sub.status === 'completed')
      return apiError(400, `Subscription is not cancellable in ${sub.status} status.`);
    const atCycleEnd = b.cancel_at_cycle_end === 1 || b.cancel_at_cycle_end === true;
    fake.cancellations.push({ subscriptionId: sub.id, cancelAtCycleEnd: atCycleEnd });
    if (atCycleEnd) sub.has_scheduled_changes = true;
    else Object.assign(sub, { status: 'cancelled', ended_at: now });
    return { status: 200, body: sub };
  }
  return null;
}

// — Settlements (https://razorpay.com/docs/api/settlements/) —

/** Razorpay's calendar for the recon's year/month/day: India's. */
const IST_MS = 5.5 * 3600_000;
const istParts = (unixSeconds: number) => {
  const d = new Date(unixSeconds * 1000 + IST_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

function settleLines(
  fake: FakeRazorpay,
  at: Date,
  lines: Parameters<FakeRazorpay['settle']>[1],
  givenUtr?: string,
): FakeRazorpaySettlement {
  const settledAt = Math.floor(at.getTime() / 1000);
  const id = rid('setl');
  const utr = givenUtr ?? `UTR${randomBytes(6).toString('hex').toUpperCase()}`;
  let amount = 0;
  let fees = 0;
  let tax = 0;
  for (const l of lines) {
    const fee = l.fee ?? 0;
    const lineTax = l.tax ?? 0;
    // A payment is credited less its fee (GST included); a refund or a debit adjustment is debited.
    const credit = l.type === 'payment' ? l.amount - fee : 0;
    const debit = l.type === 'payment' ? 0 : l.amount + fee;
    amount += credit - debit;
    fees += fee;
    tax += lineTax;
    fake.reconItems.push({
      entity_id: l.entityId,
      type: l.type,
      debit,
      credit,
      amount: l.amount,
      currency: 'INR',
      fee,
      tax: lineTax,
      on_hold: false,
      settled: true,
      created_at: settledAt - 2 * 86_400,
      settled_at: settledAt,
      settlement_id: id,
      posted_at: null,
      credit_type: 'default',
      description: null,
      notes: null,
      payment_id: l.paymentId ?? null,
      settlement_utr: utr,
      order_id: l.orderId ?? null,
      order_receipt: null,
      method: l.type === 'payment' ? 'upi' : null,
      card_network: null,
      card_issuer: null,
      card_type: null,
      dispute_id: null,
    });
  }
  const settlement: FakeRazorpaySettlement = {
    id,
    entity: 'settlement',
    amount,
    status: 'processed',
    fees,
    tax,
    utr,
    created_at: settledAt,
  };
  fake.settlements.push(settlement);
  return settlement;
}

/** GET /v1/settlements and GET /v1/settlements/recon/combined with Razorpay's parameters and limits; null for any other path. */
function settlementsApi(fake: FakeRazorpay, req: IncomingMessage, path: string): { status: number; body: unknown } | null {
  if (req.method !== 'GET' || (path !== '/v1/settlements' && path !== '/v1/settlements/' && path !== '/v1/settlements/recon/combined'))
    return null;
  const q = new URL(req.url ?? '/', 'http://fake').searchParams;
  const num = (name: string) => (q.has(name) ? Number(q.get(name)) : undefined);
  const recon = path.endsWith('/recon/combined');
  const count = num('count') ?? 10;
  const skip = num('skip') ?? 0;
  if (!Number.isInteger(count) || count < 1 || count > (recon ? 1000 : 100))
    return apiError(400, `The count must be between 1 and ${recon ? 1000 : 100}.`);
  if (!Number.isInteger(skip) || skip < 0) return apiError(400, 'The skip must be at least 0.');
  const page = <T>(items: T[]) => ({
    status: 200,
    body: { entity: 'collection', count: Math.min(count, Math.max(0, items.length - skip)), items: items.slice(skip, skip + count) },
  });
  if (!recon) {
    const from = num('from');
    const to = num('to');
    if ((from !== undefined && !Number.isInteger(from)) || (to !== undefined && !Number.isInteger(to)))
      return apiError(400, 'from and to must be Unix timestamps.');
    // Newest first, as Razorpay lists.
    const items = fake.settlements
      .filter((s) => (from === undefined || s.created_at >= from) && (to === undefined || s.created_at <= to))
      .sort((a, b) => b.created_at - a.created_at);
    return page(items);
  }
  const year = num('year');
  const month = num('month');
  const day = num('day');
  if (!Number.isInteger(year) || !Number.isInteger(month) || month! < 1 || month! > 12)
    return apiError(400, 'The year and month fields are required.');
  if (day !== undefined && (!Number.isInteger(day) || day < 1 || day > 31)) return apiError(400, 'The day must be between 1 and 31.');
  const items = fake.reconItems.filter((i) => {
    const p = istParts(i.settled_at);
    return p.year === year && p.month === month && (day === undefined || p.day === day);
  });
  return page(items);
}
