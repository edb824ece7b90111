import { createHmac, timingSafeEqual } from 'node:crypto';

// One interface, the real Razorpay adapter and the built-in test checkout.

export interface ProviderOrder {
  id: string;
  /** Minor units. */
  amount: number;
  currency: string;
  receipt: string;
  status: string;
}

export interface ProviderPayment {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: string;
}

export interface PaymentProvider {
  readonly name: 'razorpay' | 'test';
  /** The public key the browser's checkout needs (never the secret). */
  readonly keyId: string;
  createOrder(input: { amount: number; currency: string; receipt: string; notes?: Record<string, string> }): Promise<ProviderOrder>;
  /** Razorpay's checkout signature: HMAC-SHA256(`order_id|payment_id`, key secret), hex. */
  isCheckoutSignatureValid(storedOrderId: string, paymentId: string, signature: string): boolean;
  /** Payments of one provider order, for reconciliation. */
  fetchOrderPayments(orderId: string): Promise<ProviderPayment[]>;
  /**
   * Refunds `amount` (minor units, all or part) of a captured payment (Razorpay: POST
   * /v1/payments/:id/refund, speed "normal"). The refund is usually `pending` until the provider's
   * refund.processed webhook. The built-in test checkout has none: its refunds move no money.
   */
  refundPayment?(input: {
    paymentId: string;
    amount: number;
    speed?: 'normal';
    receipt: string;
    notes?: Record<string, string>;
  }): Promise<ProviderRefund>;
  /** Monthly subscriptions (the maintenance plan). */
  readonly subscriptions: SubscriptionApi;
  /**
   * Razorpay's payouts to the agency and what each carried (features/payouts). Only a provider that
   * pays money out has them: the built-in test checkout has none.
   */
  readonly settlements?: SettlementApi;
}

/** Razorpay's settlement entity (https://razorpay.com/docs/api/settlements/): paise, created_at in Unix seconds. */
export interface ProviderSettlement {
  id: string;
  /** Paid into the bank, net of `fees`; `fees` include `tax` (the GST on them). */
  amount: number;
  fees: number;
  tax: number;
  utr: string | null;
  status: string;
  created_at: number;
}

/** One line of the settlement recon (GET /v1/settlements/recon/combined), the fields we keep. */
export interface ProviderReconItem {
  entity_id: string;
  /** payment, refund, adjustment, transfer, … */
  type: string;
  amount: number;
  /** Razorpay's fee on the transaction, GST included; `tax` is that GST. */
  fee: number;
  tax: number;
  debit: number;
  credit: number;
  currency: string;
  settlement_id: string;
  settlement_utr: string | null;
  /** Unix seconds. */
  settled_at: number;
  order_id: string | null;
  /** The payment a refund or an adjustment belongs to (null on a payment's own line). */
  payment_id: string | null;
}

/** https://razorpay.com/docs/api/settlements/ — every page read, in Razorpay's order. */
export interface SettlementApi {
  /** GET /v1/settlements between two Unix times (seconds), 100 a page. */
  list(input: { from: number; to: number }): Promise<ProviderSettlement[]>;
  /** GET /v1/settlements/recon/combined of a month (or one day of it), 1,000 a page. */
  recon(input: { year: number; month: number; day?: number }): Promise<ProviderReconItem[]>;
}

/** Razorpay's subscription entity, the fields we read (times in Unix seconds). */
export interface ProviderSubscription {
  id: string;
  plan_id: string;
  status: string;
  current_start?: number | null;
  current_end?: number | null;
  charge_at?: number | null;
  notes?: Record<string, string> | unknown[];
}

/** https://razorpay.com/docs/api/payments/subscriptions/ */
export interface SubscriptionApi {
  /** POST /v1/plans: a monthly plan (period monthly, interval 1) of one amount; made once per price. */
  createPlan(input: { amount: number; currency: string; name: string }): Promise<{ id: string }>;
  /**
   * POST /v1/subscriptions: one per order, `total_count` monthly charges at most. `startAt` (a
   * future time): the first charge then, the Checkout only authorises (Razorpay's `start_at`).
   */
  createSubscription(input: {
    planId: string;
    totalCount: number;
    notes: Record<string, string>;
    startAt?: Date;
  }): Promise<ProviderSubscription>;
  /** POST /v1/subscriptions/:id/cancel with cancel_at_cycle_end: the paid period runs out first. */
  cancelAtCycleEnd(subscriptionId: string): Promise<ProviderSubscription>;
  /**
   * Takes back a cancel at the cycle end while the period runs. Absent where the provider cannot:
   * Razorpay ends a cancelled subscription for good ("Once cancelled, you cannot renew or reactivate
   * it"; its cancel_scheduled_changes is for plan updates only) — docs/decisions/218-plan-cancel-undo.md.
   */
  keepAfterCancel?(subscriptionId: string): Promise<ProviderSubscription>;
  /**
   * PATCH /v1/subscriptions/:id with a new `plan_id` and `schedule_change_at: "cycle_end"`: the
   * subscription is charged the new plan's amount from the end of the current cycle, never sooner
   * (a subscription's price changes only through a new plan; docs/decisions/322-maintenance-plan-gst.md).
   */
  changePlanAtCycleEnd(subscriptionId: string, planId: string): Promise<ProviderSubscription>;
  /** Checkout's signature for a subscription: HMAC-SHA256(`payment_id|subscription_id`, key secret), hex. */
  isSignatureValid(subscriptionId: string, paymentId: string, signature: string): boolean;
}

export interface ProviderRefund {
  id: string;
  payment_id: string;
  /** Minor units. */
  amount: number;
  currency: string;
  /** Razorpay: 'pending' | 'processed' | 'failed'. */
  status: string;
}

export class ProviderUnavailableError extends Error {}

/**
 * A provider in test mode moves no money: Razorpay's test keys start with `rzp_test_`, and the
 * built-in test checkout uses such a key too. Its payments are invoiced in the TEST series, never
 * the tax-invoice series (decision 120).
 */
export const isTestMode = (provider: Pick<PaymentProvider, 'keyId'>) => provider.keyId.startsWith('rzp_test_');

export const hmacHex = (secret: string, data: string | Buffer) => createHmac('sha256', secret).update(data).digest('hex');

/** Constant-time comparison of two hex signatures; unequal lengths are simply unequal. */
export function isSameSignature(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(givenHex)) return false;
  const a = Buffer.from(expectedHex, 'hex');
  const b = Buffer.from(givenHex.toLowerCase(), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const checkoutSignature = (secret: string, orderId: string, paymentId: string) => hmacHex(secret, `${orderId}|${paymentId}`);

/** The subscription checkout's signature: note the order, payment id first (Razorpay's docs). */
export const subscriptionSignature = (secret: string, subscriptionId: string, paymentId: string) =>
  hmacHex(secret, `${paymentId}|${subscriptionId}`);
