import type { CreatePaymentOrderResponse } from '../../contract/payments.ts';
import { call } from './call.ts';
import { postPaymentVerifyPayment } from '../../contract/payments.ts';

export interface CheckoutResult {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

interface RazorpayInstance {
  open(): void;
}
type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance;

export function loadScript(src: string): Promise<RazorpayConstructor> {
  const w = window as unknown as { Razorpay?: RazorpayConstructor };
  if (w.Razorpay) return Promise.resolve(w.Razorpay);
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.async = true;
    s.onload = () => (w.Razorpay ? resolve(w.Razorpay) : reject(new Error('checkout did not load')));
    s.onerror = () => reject(new Error('checkout did not load'));
    document.head.appendChild(s);
  });
}

/**
 * Opens the checkout for a provider order. Razorpay: its own window, resolving with the three
 * signed fields (or null when the customer closes it). Test mode: our own test-checkout page, which
 * comes back to /pay with the fields in the address, so this never resolves.
 */
export async function openCheckout(order: CreatePaymentOrderResponse): Promise<CheckoutResult | null> {
  if (order.provider === 'test') {
    window.location.assign(`/api/v1/payment/test-checkout/${encodeURIComponent(order.id)}`);
    return new Promise(() => {});
  }
  const Razorpay = await loadScript(order.checkoutUrl);
  return new Promise((resolve) => {
    const rzp = new Razorpay({
      key: order.key,
      amount: order.amount,
      currency: order.currency,
      name: order.name,
      description:
        order.kind === 'advance'
          ? 'Website — advance payment (20%)'
          : order.kind === 'change'
            ? 'Website — change request'
            : 'Website — remaining payment (80%)',
      order_id: order.id,
      prefill: order.prefill,
      theme: { color: '#7c3aed' },
      handler: (r: CheckoutResult) => resolve(r),
      modal: { ondismiss: () => resolve(null) },
    });
    rzp.open();
  });
}

export const verifyPayment = (r: CheckoutResult) => call(postPaymentVerifyPayment, { body: r });

/** Reads the checkout result the test checkout put in the address, if any. */
export function checkoutResultFromSearch(search: URLSearchParams): CheckoutResult | null {
  const order = search.get('razorpay_order_id');
  const payment = search.get('razorpay_payment_id');
  const signature = search.get('razorpay_signature');
  return order && payment && signature ? { razorpay_order_id: order, razorpay_payment_id: payment, razorpay_signature: signature } : null;
}
