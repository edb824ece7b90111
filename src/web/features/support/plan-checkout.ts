import {
  postOrdersMaintenanceCancel,
  postOrdersMaintenanceResume,
  postOrdersMaintenanceSubscribe,
  postOrdersMaintenanceVerify,
} from '../../../contract/maintenance.ts';
import { call } from '../../lib/call.ts';
import { loadScript } from '../../lib/checkout.ts';

// The maintenance plan's checkout (decision 175): Razorpay Checkout opened with
// `subscription_id`, or the built-in test checkout's subscription page, which comes back to
// /status/{order} with Checkout's three signed fields in the address.

export interface SubscriptionResult {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

/** Razorpay's script when an older server's subscribe answer names none (RAZORPAY_CHECKOUT_URL's default). */
const RAZORPAY_CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';

/**
 * Opens Checkout once the customer ticked the maintenance terms (the server refuses without them);
 * resolves with the signed fields, or null when the customer closes it (test mode navigates away).
 */
export async function subscribeAndCheckout(orderId: string): Promise<SubscriptionResult | null> {
  const sub = await call(postOrdersMaintenanceSubscribe, { params: { orderId }, body: { acceptTerms: true } });
  if (sub.provider === 'test') {
    window.location.assign(`/api/v1/payment/test-checkout/subscription/${encodeURIComponent(sub.subscriptionId)}`);
    return new Promise(() => {});
  }
  const Razorpay = await loadScript(sub.checkoutUrl ?? RAZORPAY_CHECKOUT_SCRIPT);
  return new Promise((resolve) => {
    new Razorpay({
      key: sub.keyId,
      subscription_id: sub.subscriptionId,
      name: 'Website maintenance',
      description: 'Monthly maintenance plan',
      theme: { color: '#7c3aed' },
      handler: (r: SubscriptionResult) => resolve(r),
      modal: { ondismiss: () => resolve(null) },
    }).open();
  });
}

export const verifySubscription = (orderId: string, r: SubscriptionResult) =>
  call(postOrdersMaintenanceVerify, { params: { orderId }, body: r });
export const cancelPlan = (orderId: string) => call(postOrdersMaintenanceCancel, { params: { orderId } });
/** Takes back the cancel while the paid period runs (docs/decisions/218-plan-cancel-undo.md). */
export const keepPlan = (orderId: string) => call(postOrdersMaintenanceResume, { params: { orderId } });

/** The test checkout's Cancel comes back with this in the address: say that nothing was started. */
export const CHECKOUT_CANCELLED = 'checkout-cancelled';

/** The signed fields the test checkout put in the address, if any. */
export function subscriptionResultFromSearch(search: URLSearchParams): SubscriptionResult | null {
  const payment = search.get('razorpay_payment_id');
  const subscription = search.get('razorpay_subscription_id');
  const signature = search.get('razorpay_signature');
  return payment && subscription && signature
    ? { razorpay_payment_id: payment, razorpay_subscription_id: subscription, razorpay_signature: signature }
    : null;
}
