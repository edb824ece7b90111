import {
  type PaymentProvider,
  type ProviderOrder,
  type ProviderPayment,
  type ProviderRefund,
  type ProviderReconItem,
  type ProviderSettlement,
  type ProviderSubscription,
  type SettlementApi,
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

  async function call<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
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
      throw new ProviderUnavailableError(
        `razorpay ${method} answered ${res.status}: ${data?.error?.description ?? 'no body'}`.slice(0, 300),
      );
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
      const r = await call<ProviderRefund>('POST', `/v1/payments/${encodeURIComponent(paymentId)}/refund`, {
        amount,
        speed,
        receipt,
        notes,
      });
      if (typeof r.id !== 'string' || r.payment_id !== paymentId || r.amount !== amount) {
        throw new ProviderUnavailableError('razorpay returned a refund that does not match the request');
      }
      return { id: r.id, payment_id: r.payment_id, amount: r.amount, currency: r.currency, status: r.status };
    },
    subscriptions: {
      // https://razorpay.com/docs/api/payments/subscriptions/create-plan/
      async createPlan({ amount, currency, name }) {
        const p = await call<{ id: string; item?: { amount?: number; currency?: string } }>('POST', '/v1/plans', {
          period: 'monthly',
          interval: 1,
          item: { name, amount, currency },
        });
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
        if (typeof s.id !== 'string' || s.plan_id !== planId)
          throw new ProviderUnavailableError('razorpay returned a subscription that does not match the request');
        return s;
      },
      // https://razorpay.com/docs/api/payments/subscriptions/cancel-subscription/
      async cancelAtCycleEnd(subscriptionId) {
        const s = await call<ProviderSubscription>('POST', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`, {
          cancel_at_cycle_end: 1,
        });
        if (s.id !== subscriptionId) throw new ProviderUnavailableError('razorpay cancelled another subscription than asked');
        return s;
      },
      // https://razorpay.com/docs/api/payments/subscriptions/update-subscription/ — the change waits for the cycle's end.
      async changePlanAtCycleEnd(subscriptionId, planId) {
        const s = await call<ProviderSubscription>('PATCH', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, {
          plan_id: planId,
          schedule_change_at: 'cycle_end',
        });
        if (s.id !== subscriptionId) throw new ProviderUnavailableError('razorpay updated another subscription than asked');
        return s;
      },
      isSignatureValid(subscriptionId, paymentId, signature) {
        return isSameSignature(subscriptionSignature(opts.keySecret, subscriptionId, paymentId), signature);
      },
    },
    settlements: settlementsApi(call),
  };
}

// — Settlements (features/payouts, docs/decisions/323-razorpay-settlements.md) —

type Call = <T>(method: 'GET', path: string) => Promise<T>;

/** Razorpay's page sizes: 100 settlements, 1,000 recon lines. */
const SETTLEMENTS_PAGE = 100;
const RECON_PAGE = 1000;
/** A bound on the pages of one read, so a provider that never ends a list cannot keep us reading. */
const MAX_PAGES = 200;

const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);

function settlementOf(raw: Record<string, unknown>): ProviderSettlement {
  const id = str(raw.id);
  const amount = int(raw.amount);
  const createdAt = int(raw.created_at);
  if (!id || amount === null || createdAt === null)
    throw new ProviderUnavailableError('razorpay returned a settlement without its id, amount or created_at');
  return {
    id,
    amount,
    fees: int(raw.fees) ?? 0,
    tax: int(raw.tax) ?? 0,
    utr: str(raw.utr),
    status: str(raw.status) ?? 'created',
    created_at: createdAt,
  };
}

function reconItemOf(raw: Record<string, unknown>): ProviderReconItem {
  const entityId = str(raw.entity_id);
  const type = str(raw.type);
  const settlementId = str(raw.settlement_id);
  const settledAt = int(raw.settled_at);
  const amount = int(raw.amount);
  if (!entityId || !type || !settlementId || settledAt === null || amount === null) {
    throw new ProviderUnavailableError('razorpay returned a recon line without its entity_id, type, amount, settlement_id or settled_at');
  }
  return {
    entity_id: entityId,
    type,
    amount,
    fee: int(raw.fee) ?? 0,
    tax: int(raw.tax) ?? 0,
    debit: int(raw.debit) ?? 0,
    credit: int(raw.credit) ?? 0,
    currency: str(raw.currency) ?? 'INR',
    settlement_id: settlementId,
    settlement_utr: str(raw.settlement_utr),
    settled_at: settledAt,
    order_id: str(raw.order_id),
    payment_id: str(raw.payment_id),
  };
}

/** Every page of a collection, `count` at a time with `skip`, until a short page. */
async function allPages<T>(
  call: Call,
  path: string,
  params: Record<string, number>,
  count: number,
  read: (raw: Record<string, unknown>) => T,
): Promise<T[]> {
  const out: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams(Object.entries({ ...params, count, skip: page * count }).map(([k, v]) => [k, String(v)]));
    const r = await call<{ items?: unknown }>('GET', `${path}?${query}`);
    if (!Array.isArray(r.items)) throw new ProviderUnavailableError(`razorpay ${path} answered without items`);
    out.push(...r.items.map((raw) => read((raw ?? {}) as Record<string, unknown>)));
    if (r.items.length < count) return out;
  }
  throw new ProviderUnavailableError(`razorpay ${path} had more than ${MAX_PAGES} pages`);
}

function settlementsApi(call: Call): SettlementApi {
  return {
    // https://razorpay.com/docs/api/settlements/fetch-all/ — from/to in Unix seconds, count ≤ 100, skip.
    list: ({ from, to }) => allPages(call, '/v1/settlements', { from, to }, SETTLEMENTS_PAGE, settlementOf),
    // https://razorpay.com/docs/api/settlements/fetch-recon/ — year, month[, day], count ≤ 1,000, skip.
    recon: ({ year, month, day }) =>
      allPages(call, '/v1/settlements/recon/combined', { year, month, ...(day ? { day } : {}) }, RECON_PAGE, reconItemOf),
  };
}
