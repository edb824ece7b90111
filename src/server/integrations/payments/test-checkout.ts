import { randomBytes } from 'node:crypto';
import { type PaymentProvider, type ProviderPayment, checkoutSignature, isSameSignature, subscriptionSignature } from './provider.ts';

/**
 * The built-in test checkout: used when no Razorpay keys are configured. It keeps its
 * orders in memory and signs exactly as Razorpay does, with a local secret, so the server's
 * verification path is the same code in test mode and in production.
 */
export interface TestCheckoutProvider extends PaymentProvider {
  readonly name: 'test';
  /** Simulates the customer paying on the test page: returns the three fields Razorpay's checkout returns. */
  pay(orderId: string): { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string } | null;
  findOrder(orderId: string): { id: string; amount: number; currency: string; receipt: string } | undefined;
  /**
   * Simulates the customer authorising a subscription's charge on the test page: a new payment id
   * and Checkout's signature over it. The subscription itself lives in the app's database (so
   * every instance sharing TEST_PAYMENTS_SECRET can show and charge it), not in this object.
   */
  paySubscription(subscriptionId: string): { razorpay_payment_id: string; razorpay_subscription_id: string; razorpay_signature: string };
}

export function createTestCheckoutProvider(secret?: string): TestCheckoutProvider {
  const key = secret ?? randomBytes(32).toString('hex');
  const orders = new Map<string, { id: string; amount: number; currency: string; receipt: string; payments: ProviderPayment[] }>();
  const id = (prefix: string) => `${prefix}_test_${randomBytes(9).toString('base64url')}`;
  return {
    name: 'test',
    keyId: 'rzp_test_builtin',
    async createOrder({ amount, currency, receipt }) {
      const o = { id: id('order'), amount, currency, receipt, payments: [] };
      orders.set(o.id, o);
      return { id: o.id, amount, currency, receipt, status: 'created' };
    },
    isCheckoutSignatureValid(storedOrderId, paymentId, signature) {
      return isSameSignature(checkoutSignature(key, storedOrderId, paymentId), signature);
    },
    async fetchOrderPayments(orderId) {
      return orders.get(orderId)?.payments ?? [];
    },
    findOrder(orderId) {
      return orders.get(orderId);
    },
    pay(orderId) {
      const o = orders.get(orderId);
      if (!o) return null;
      const paymentId = id('pay');
      o.payments.push({ id: paymentId, order_id: o.id, amount: o.amount, currency: o.currency, status: 'captured' });
      return { razorpay_order_id: o.id, razorpay_payment_id: paymentId, razorpay_signature: checkoutSignature(key, o.id, paymentId) };
    },
    subscriptions: {
      // A plan is only a name for an amount here; the same amount always gets the same id.
      async createPlan({ amount, currency }) {
        return { id: `plan_test_${currency}_${amount}` };
      },
      async createSubscription({ planId }) {
        return { id: id('sub'), plan_id: planId, status: 'created', current_start: null, current_end: null };
      },
      // The app keeps the subscription's state; the test checkout has nothing more to tell.
      async cancelAtCycleEnd(subscriptionId) {
        return { id: subscriptionId, plan_id: '', status: 'active' };
      },
      // Our database decides at the period end (chargeTestSubscription), so taking it back is ours too.
      async keepAfterCancel(subscriptionId) {
        return { id: subscriptionId, plan_id: '', status: 'active' };
      },
      // The app keeps the pending plan and amount; chargeTestSubscription charges it from the cycle's end.
      async changePlanAtCycleEnd(subscriptionId, planId) {
        return { id: subscriptionId, plan_id: planId, status: 'active' };
      },
      isSignatureValid(subscriptionId, paymentId, signature) {
        return isSameSignature(subscriptionSignature(key, subscriptionId, paymentId), signature);
      },
    },
    paySubscription(subscriptionId) {
      const paymentId = id('pay');
      return {
        razorpay_payment_id: paymentId,
        razorpay_subscription_id: subscriptionId,
        razorpay_signature: subscriptionSignature(key, subscriptionId, paymentId),
      };
    },
  };
}
