import {
  type PaymentProvider,
  type ProviderOrder,
  type ProviderPayment,
  type ProviderRefund,
  type ProviderSubscription,
  ProviderUnavailableError,
  checkoutSignature,
  isSameSignature,
  subscriptionSignature,
} from './provider.ts';

// Razorpay Orders API over plain fetch (the official SDK's host is hard-coded, so tests could not point it at the fake).
// https://razorpay.com/docs/api/orders/ — POST /v1/orders, GET /v1/orders/:id/payments, Basic auth.
const TIMEOUT_MS = 8000;

export function createRazorpayProvider(opts: { apiUrl: string; keyId: string; keySecret: string; timeoutMs?: number }): PaymentProvider {
  const base = opts.apiUrl.replace(/\/+$/, '');
  const auth = `Basic ${Buffer.from(`${opts.keyId}:${opts.keySecret}`).toString('base64')}`;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: auth, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS),
      });
    } catch (err) {
      // Timeouts and refused connections: the caller says "try again later"; no secret in the text.
      throw new ProviderUnavailableError(`razorpay ${method} ${path.split('/').slice(0, 3).join('/')} failed: ${(err as Error).name}`);
    }
    const data = (await res.json().catch(() => null)) as (T & { error?: { description?: string } }) | null;
    if (!res.ok || !data) {
      throw new ProviderUnavailableError(`razorpay ${method} answered ${res.status}: ${data?.error?.description ?? 'no body'}`.slice(0, 300));
    }
    return data;
  }

  return {
    name: 'razorpay',
    keyId: opts.keyId,
    async createOrder({ amount, currency, receipt, notes }) {
      const o = await call<ProviderOrder>('POST', '/v1/orders', { amount, currency, receipt, notes });
      if (o.amount !== amount || o.currency !== currency || typeof o.id !== 'string') {
        throw new ProviderUnavailableError('razorpay returned an order that does not match the request');
      }
      return { id: o.id, amount: o.amount, currency: o.currency, receipt: o.receipt, status: o.status };
    },
    isCheckoutSignatureValid(storedOrderId, paymentId, signature) {
      return isSameSignature(checkoutSignature(opts.keySecret, storedOrderId, paymentId), signature);
    },
    async fetchOrderPayments(orderId) {
      const r = await call<{ items: ProviderPayment[] }>('GET', `/v1/orders/${encodeURIComponent(orderId)}/payments`);
      return r.items ?? [];
    },
    // https://razorpay.com/docs/api/refunds/create-normal/ — amount in minor units; speed normal.
    async refundPayment({ paymentId, amount, speed = 'normal', receipt, notes }) {
      const r = await call<ProviderRefund>('POST', `/v1/payments/${encodeURIComponent(paymentId)}/refund`, { amount, speed, receipt, notes });
      if (typeof r.id !== 'string' || r.payment_id !== paymentId || r.amount !== amount) {
        throw new ProviderUnavailableError('razorpay returned a refund that does not match the request');
      }
      return { id: r.id, payment_id: r.payment_id, amount: r.amount, currency: r.currency, status: r.status };
    },
    subscriptions: {
      // https://razorpay.com/docs/api/payments/subscriptions/create-plan/
      async createPlan({ amount, currency, name }) {
        const p = await call<{ id: string; item?: { amount?: number; currency?: string } }>('POST', '/v1/plans', { period: 'monthly', interval: 1, item: { name, amount, currency } });
        if (typeof p.id !== 'string' || p.item?.amount !== amount || p.item?.currency !== currency) {
          throw new ProviderUnavailableError('razorpay returned a plan that does not match the request');
        }
        return { id: p.id };
      },
      // https://razorpay.com/docs/api/payments/subscriptions/create-subscription/
      async createSubscription({ planId, totalCount, notes, startAt }) {
        const s = await call<ProviderSubscription>('POST', '/v1/subscriptions', {
          plan_id: planId,
          total_count: totalCount,
          customer_notify: 1,
          notes,
          ...(startAt ? { start_at: Math.floor(startAt.getTime() / 1000) } : {}),
        });
        if (typeof s.id !== 'string' || s.plan_id !== planId) throw new ProviderUnavailableError('razorpay returned a subscription that does not match the request');
        return s;
      },
      // https://razorpay.com/docs/api/payments/subscriptions/cancel-subscription/
      async cancelAtCycleEnd(subscriptionId) {
        const s = await call<ProviderSubscription>('POST', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`, { cancel_at_cycle_end: 1 });
        if (s.id !== subscriptionId) throw new ProviderUnavailableError('razorpay cancelled another subscription than asked');
        return s;
      },
      isSignatureValid(subscriptionId, paymentId, signature) {
        return isSameSignature(subscriptionSignature(opts.keySecret, subscriptionId, paymentId), signature);
      },
    },
  };
}
