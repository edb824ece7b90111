import { z } from 'zod';
import { couponCodeInput, currencyCode, quoteSchema } from './pricing.ts';
import { defineOperation } from './operation.ts';
import { errorResponse, errorResponses } from './common.ts';

/**
 * POST /payment/create-order. `amount`, when sent, is in MAJOR units as the spec's client sends it
 * and must equal the server's quote; the server never takes an amount from the client.
 */
export const createPaymentOrderRequest = z.object({
  kind: z.enum(['advance', 'remaining', 'change']).default('advance'),
  /** kind "change": the quoted change to pay (docs/decisions/250-change-requests.md). */
  changeId: z.uuid('Not a change id.').optional(),
  couponCode: couponCodeInput.optional(),
  orderId: z.string().max(40).optional(),
  currency: currencyCode.optional(),
  amount: z.number().nonnegative().max(1e9).optional(),
  email: z.string().max(200).optional(),
  receipt: z.string().max(40).optional(),
  /** Required (true) for the advance: the customer ticked "I agree to the Terms and Conditions". Ignored for the remaining payment. */
  acceptTerms: z.boolean().optional(),
});
export type CreatePaymentOrderRequest = z.input<typeof createPaymentOrderRequest>;

export const createPaymentOrderResponse = z.object({
  // The provider order (Razorpay's shape): amount in minor units.
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  receipt: z.string(),
  status: z.string(),
  // What the browser needs to open the checkout.
  provider: z.enum(['razorpay', 'test']),
  key: z.string(),
  checkoutUrl: z.string(),
  kind: z.enum(['advance', 'remaining', 'change']),
  orderId: z.string().nullable(),
  /** kind "change": the change being paid. */
  changeId: z.string().optional(),
  quote: quoteSchema,
  name: z.string(),
  prefill: z.object({ email: z.string(), name: z.string() }),
});
export type CreatePaymentOrderResponse = z.infer<typeof createPaymentOrderResponse>;

/** POST /payment/verify-payment (spec §7): the three fields Razorpay's checkout returns. */
export const verifyPaymentRequest = z.object({
  razorpay_order_id: z.string().min(1).max(64),
  razorpay_payment_id: z.string().min(1).max(64),
  razorpay_signature: z.string().min(1).max(256),
});
export const verifyPaymentResponse = z.object({
  status: z.literal('ok'),
  success: z.literal(true),
  kind: z.enum(['advance', 'remaining', 'change']),
  orderId: z.string(),
  /** True when this payment came after the installment was already paid: it will be refunded. */
  duplicate: z.boolean(),
});
export type VerifyPaymentResponse = z.infer<typeof verifyPaymentResponse>;

export const webhookResponse = z.object({ status: z.enum(['processed', 'duplicate', 'ignored']) });

export const reconcileResponse = z.object({ success: z.literal(true), checked: z.number().int(), paid: z.number().int() });

// Operations (docs/decisions/280-contract-operations.md).

/** The payment provider's failure is a 502 besides the usual errors. */
const withProviderErrors = { ...errorResponses, 502: errorResponse };

/** Creates the provider order for one installment */
export const postPaymentCreateOrder = defineOperation({
  method: 'POST',
  path: '/api/v1/payment/create-order',
  body: createPaymentOrderRequest,
  responses: { 200: createPaymentOrderResponse },
  errors: withProviderErrors,
});

/** Admin: ask the provider about open payments now */
export const postPaymentReconcile = defineOperation({
  method: 'POST',
  path: '/api/v1/payment/reconcile',
  responses: { 200: reconcileResponse },
  errors: withProviderErrors,
});

/** Verifies the checkout's signature and records the payment */
export const postPaymentVerifyPayment = defineOperation({
  method: 'POST',
  path: '/api/v1/payment/verify-payment',
  body: verifyPaymentRequest,
  responses: { 200: verifyPaymentResponse },
});

/** Razorpay webhook (signed with RAZORPAY_WEBHOOK_SECRET, idempotent by event id) */
export const postPaymentWebhook = defineOperation({
  method: 'POST',
  path: '/api/v1/payment/webhook',
  responses: { 200: webhookResponse },
});

// The built-in test checkout (test mode only, docs/decisions/120-test-payment-invoices.md): an HTML page
// and its form, which answers with a redirect. Not called by the web app's code: the browser goes there.
const testCheckoutParams = z.object({ orderId: z.string().min(1).max(64) });
/** An HTML page. */
export const testCheckoutPage = z.string().describe('text/html');
/** A redirect (303) back to the app; no body. */
export const seeOther = z.null().describe('303 See Other: Location is where the browser goes next');

/** Built-in test checkout page (test mode only) */
export const getPaymentTestCheckout = defineOperation({
  method: 'GET',
  path: '/api/v1/payment/test-checkout/:orderId',
  params: testCheckoutParams,
  binary: true,
  responses: { 200: testCheckoutPage },
});

/** Completes or cancels a test payment and returns to /pay */
export const postPaymentTestCheckout = defineOperation({
  method: 'POST',
  path: '/api/v1/payment/test-checkout/:orderId',
  params: testCheckoutParams,
  body: z.object({ action: z.enum(['pay', 'cancel']) }),
  responses: { 303: seeOther },
});
