import { z } from 'zod';
import { errorResponse, errorResponses } from './common.ts';
import { defineOperation } from './operation.ts';
import { csvResponse } from './admin-leads.ts';

// Razorpay's payouts to the agency, reconciled with the app's payments and refunds (back office,
// owner only; docs/decisions/323-razorpay-settlements.md). Amounts are paise (INR: Razorpay settles
// in rupees); times ISO strings. A fee is Razorpay's, GST included; `tax` is that GST, which the
// agency claims as input tax credit.

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const MONTH_MESSAGE = 'month must be a month written YYYY-MM, e.g. 2026-11';

/** ?month=YYYY-MM; without it, the current month where the agency invoices (INVOICE_TIME_ZONE). */
export const payoutsQuery = z.object({ month: z.string().regex(MONTH, MONTH_MESSAGE).optional() });
export const payoutsCsvParams = z.object({ month: z.string().regex(MONTH, MONTH_MESSAGE) });

export const PAYOUT_ITEM_TYPES = ['payment', 'refund', 'adjustment'] as const;

export const payoutItem = z.object({
  /** Razorpay's `type`; anything else it settles (a transfer, a dispute) is listed as an adjustment. */
  type: z.enum(PAYOUT_ITEM_TYPES),
  /** The payment: its own id (pay_…), the one a refund returns, or an adjustment's payment (null if none). */
  paymentId: z.string().nullable(),
  /** The order's public id (ORD…) when the app knows the payment or refund, else null. */
  orderId: z.string().nullable(),
  amount: z.number().int(),
  /** Razorpay's fee on it, GST included. */
  fee: z.number().int(),
  /** The GST on that fee (input tax credit). */
  tax: z.number().int(),
});
export type PayoutItem = z.infer<typeof payoutItem>;

export const payout = z.object({
  /** Razorpay's settlement id (setl_…). */
  id: z.string(),
  utr: z.string().nullable(),
  /** Paid into the bank: the payments less the refunds, fees and GST. */
  amount: z.number().int(),
  fees: z.number().int(),
  tax: z.number().int(),
  settledAt: z.string(),
  items: z.array(payoutItem),
});
export type Payout = z.infer<typeof payout>;

/** A transaction Razorpay settled that the app has no payment or refund for. */
export const unknownSettled = z.object({
  /** Razorpay's id of it (pay_…, rfnd_…). */
  entityId: z.string(),
  type: z.string(),
  paymentId: z.string().nullable(),
  /** Razorpay's order id (order_…), to find it in Razorpay's dashboard. */
  providerOrderId: z.string().nullable(),
  amount: z.number().int(),
  fee: z.number().int(),
  tax: z.number().int(),
  settlementId: z.string(),
  utr: z.string().nullable(),
  settledAt: z.string(),
});
export type UnknownSettled = z.infer<typeof unknownSettled>;

/** A live payment the app took that no payout carried five days after it was paid. */
export const unsettledPayment = z.object({
  paymentId: z.string(),
  orderId: z.string(),
  /** Minor units of `currency` (the order's). */
  amount: z.number().int(),
  currency: z.string(),
  paidAt: z.string(),
});
export type UnsettledPayment = z.infer<typeof unsettledPayment>;

export const payoutsResponse = z.object({
  payouts: z.array(payout),
  unknownAtProvider: z.array(unknownSettled),
  unsettled: z.array(unsettledPayment),
  totals: z.object({ amount: z.number().int(), fees: z.number().int(), tax: z.number().int() }),
});
export type PayoutsResponse = z.infer<typeof payoutsResponse>;

/** What one read of Razorpay's settlements found (counts, stored or refreshed by their ids). */
export const payoutsSyncResponse = z.object({ settlements: z.number().int(), items: z.number().int() });
export type PayoutsSyncResponse = z.infer<typeof payoutsSyncResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** The month's payouts with what each carried, what Razorpay settled that the app does not know, and payments not settled after 5 days */
export const getAdminPayouts = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/payouts',
  query: payoutsQuery,
  responses: { 200: payoutsResponse },
});

/** The month's payouts as CSV for the accountant: one row per settled transaction */
export const getAdminPayoutsCsv = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/payouts/:month.csv',
  params: payoutsCsvParams,
  binary: true,
  responses: { 200: csvResponse },
});

/** Reads Razorpay's settlements of ?month now (without it: this month and the last); 409 without Razorpay keys */
export const postAdminPayoutsSync = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/payouts/sync',
  query: payoutsQuery,
  responses: { 200: payoutsSyncResponse },
  errors: { ...errorResponses, 502: errorResponse },
});
