import { z } from 'zod';
import { defineOperation } from './operation.ts';
import { seeOther, testCheckoutPage } from './payments.ts';

// The maintenance plan (decision 175): a monthly Razorpay subscription per
// delivered order. With the built-in test checkout (no Razorpay keys) the subscription lives in
// our own database and Checkout is the page GET /api/v1/payment/test-checkout/subscription/{subscriptionId}.

/** Razorpay's subscription states we keep (https://razorpay.com/docs/payments/subscriptions/states/). */
export const PLAN_STATES = ['created', 'authenticated', 'active', 'pending', 'halted', 'cancelled', 'completed'] as const;
export type PlanState = (typeof PLAN_STATES)[number];

export const maintenanceOrderParams = z.object({ orderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an order id.') });

/**
 * The subscribe request: the customer accepts the maintenance terms (the terms page's
 * #maintenance-plan part). When the plan starts is the server's decision alone; anything else sent
 * (a wish to start now) is ignored (docs/decisions/265-maintenance-start-is-the-servers.md).
 */
export const subscribeBody = z
  .object({ acceptTerms: z.boolean().optional() })
  .nullish()
  .transform((b) => b ?? {});

/** What Checkout needs: `subscription_id` and, for Razorpay, the public key. */
export const subscribeResponse = z.object({
  provider: z.enum(['razorpay', 'test']),
  subscriptionId: z.string(),
  keyId: z.string().optional(),
  /** Razorpay Checkout's script (RAZORPAY_CHECKOUT_URL), like the advance's create-order answer; razorpay only. */
  checkoutUrl: z.string().optional(),
  /** Subscribed during the included support: the first charge is then (ISO), decided by the server; null: at once. */
  startsAt: z.string().nullable().optional(),
});
export type SubscribeResponse = z.infer<typeof subscribeResponse>;

const providerId = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is required.`)
    .max(64, `${what} is too long.`)
    .regex(/^[A-Za-z0-9_-]+$/, `${what} is not valid.`);
export const verifySubscriptionBody = z.object({
  razorpay_payment_id: providerId('razorpay_payment_id'),
  razorpay_subscription_id: providerId('razorpay_subscription_id'),
  razorpay_signature: z.string().trim().min(1, 'razorpay_signature is required.').max(128, 'razorpay_signature is too long.'),
});

/** The plan as the customer and the support window see it. */
export const planView = z.object({
  state: z.enum(PLAN_STATES),
  /** Subscribed during the included support: the first charge's date (ISO), while it is to come; else null. */
  startsAt: z.string().nullable(),
  /** The end of the period paid for (null before the first charge). */
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
export type PlanView = z.infer<typeof planView>;
export const planResponse = z.object({ plan: planView });

/** The founder's view of one order's plan (admin order detail). Optional fields: owner only (absent for staff, decision 232). */
export const adminMaintenance = z.object({
  state: z.enum(PLAN_STATES),
  provider: z.enum(['razorpay', 'test']).optional(),
  subscriptionId: z.string().optional(),
  amount: z.number().int().optional(),
  currency: z.string().optional(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** When the next monthly charge is due; null when none will come (cancelling, ended, not started). */
  nextChargeAt: z.string().nullable(),
  /** Additive, owner only: a price change the owner scheduled (docs/decisions/322-maintenance-plan-gst.md), its amount and from when; null when none. */
  pending: z.object({ amount: z.number().int(), from: z.string().nullable() }).nullable().optional(),
  charges: z
    .array(
      z.object({
        paymentId: z.string(),
        amount: z.number().int(),
        currency: z.string(),
        periodStart: z.string(),
        periodEnd: z.string(),
        chargedAt: z.string(),
        invoice: z.object({ id: z.string(), number: z.string(), series: z.string() }).nullable(),
      }),
    )
    .optional(),
});
export type AdminMaintenance = z.infer<typeof adminMaintenance>;

/**
 * A running plan charged its price without the GST it owes (docs/decisions/322-maintenance-plan-gst.md):
 * opened at the old flat price, its amount is its price while GST applies to its buyer. The owner
 * moves it to `newAmount` at the next cycle (POST …/reprice); `pendingFrom` says it is done and when
 * it applies.
 */
export const planWithoutGst = z.object({
  /** Our subscription id (the reprice route's {id}). */
  id: z.string(),
  orderId: z.string(),
  state: z.enum(PLAN_STATES),
  currency: z.string(),
  /** What is charged each month now (the price, no GST), minor units. */
  amount: z.number().int(),
  /** The month's total with its GST for the buyer now (domain maintenanceQuote). */
  newAmount: z.number().int(),
  /** The amount scheduled at the provider, from `pendingFrom` (the end of the paid period); null before the owner moved it. */
  pendingAmount: z.number().int().nullable(),
  pendingFrom: z.string().nullable(),
});
export type PlanWithoutGst = z.infer<typeof planWithoutGst>;

/** The overview's plans: how many are active, and monthly recurring revenue per currency (minor units). */
export const maintenanceOverview = z.object({
  activePlans: z.number().int(),
  /** Owner only (absent for staff, decision 232). */
  mrr: z.array(z.object({ currency: z.string(), amountMinor: z.number().int() })).optional(),
  /** Additive, owner only: running plans "priced without GST" (docs/decisions/322-maintenance-plan-gst.md). */
  withoutGst: z.array(planWithoutGst).optional(),
});
export type MaintenanceOverview = z.infer<typeof maintenanceOverview>;

// Operations (docs/decisions/280-contract-operations.md).

/** Opens the monthly maintenance subscription of a delivered order (what Checkout needs) */
export const postOrdersMaintenanceSubscribe = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/maintenance/subscribe',
  params: maintenanceOrderParams,
  body: subscribeBody,
  responses: { 200: subscribeResponse },
});

/** Verifies Checkout's signature over payment_id|subscription_id */
export const postOrdersMaintenanceVerify = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/maintenance/verify',
  params: maintenanceOrderParams,
  body: verifySubscriptionBody,
  responses: { 200: planResponse },
});

/** Cancels the plan at the end of the paid period (again: the same answer) */
export const postOrdersMaintenanceCancel = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/maintenance/cancel',
  params: maintenanceOrderParams,
  responses: { 200: planResponse },
});

/** Takes back "cancel at period end" while the paid period runs (again: the same answer; 409 where the provider cannot) */
export const postOrdersMaintenanceResume = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/maintenance/resume',
  params: maintenanceOrderParams,
  responses: { 200: planResponse },
});

export const repriceParams = z.object({ id: z.uuid('Not a subscription id.') });
export const repriceResponse = z.object({ success: z.literal(true), plan: planWithoutGst });

/**
 * The owner moves one plan charged without GST to its price with GST from the next cycle (Razorpay:
 * PATCH /v1/subscriptions/{id}, schedule_change_at cycle_end); the customer is mailed the new
 * amount. Again: the same answer, the provider asked once (docs/decisions/322-maintenance-plan-gst.md).
 */
export const postAdminMaintenanceSubscriptionsReprice = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/maintenance/subscriptions/:id/reprice',
  params: repriceParams,
  responses: { 200: repriceResponse },
});

const testSubscriptionParams = z.object({
  subscriptionId: z.string().regex(/^sub_test_[A-Za-z0-9_-]{1,40}$/, 'Not a test subscription id.'),
});

/** Built-in test checkout for a maintenance subscription (test mode only) */
export const getPaymentTestCheckoutSubscription = defineOperation({
  method: 'GET',
  path: '/api/v1/payment/test-checkout/subscription/:subscriptionId',
  params: testSubscriptionParams,
  binary: true,
  responses: { 200: testCheckoutPage },
});

/** Authorises (first charge) or leaves a test subscription and returns to the order */
export const postPaymentTestCheckoutSubscription = defineOperation({
  method: 'POST',
  path: '/api/v1/payment/test-checkout/subscription/:subscriptionId',
  params: testSubscriptionParams,
  body: z.object({ action: z.enum(['subscribe', 'cancel']) }),
  responses: { 303: seeOther },
});
