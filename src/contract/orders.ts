import { z } from 'zod';
import { defineOperation } from './operation.ts';

export const installmentState = z.enum(['due', 'pending', 'paid']);

const installment = z.object({ amount: z.number().int(), state: installmentState });

/** The money of one order as every customer view shows it: integer minor units and their currency. */
export const orderMoneyFields = {
  currency: z.string(),
  symbol: z.string(),
  minorDigits: z.number().int(),
  /** What the order costs now, tax, changes and plan months included: the statement's `charged` (docs/decisions/320-order-ledger.md). */
  total: z.number().int(),
  /** What is still owed: the statement's `balanceDue` (negative when money is owed to the customer). */
  balanceDue: z.number().int(),
  advance: installment,
  remaining: installment,
};

/** One row of the dashboard's My Orders (spec §2): real installment states. */
export const orderSummary = z.object({
  order_id: z.string(),
  /** The spec's text of when it was ordered (in UTC, spec §2). */
  date: z.string(),
  /** Additive (docs/decisions/335-one-rule-for-times.md): when it was ordered (ISO); screens format it. */
  createdAt: z.string(),
  total_amount: z.number(),
  ...orderMoneyFields,
  advance_status: z.enum(['Paid', 'Due']),
  /** 'Cancelled': the order was cancelled with the remaining unpaid, which is no longer due (decision 321). */
  remaining_status: z.enum(['Paid', 'Due', 'Cancelled']),
  /** Index of the last completed stage, as in the status response (0 after the advance). */
  completed_steps: z.number().int().min(0).max(14),
  coupon_code: z.string().nullable(),
  /** Messages from the agency the customer has not read yet. */
  unreadMessages: z.number().int().min(0),
  /** End of the support window (ISO), including a plan's extension; null until delivered. */
  supportUntil: z.string().nullable(),
  /** Additive (docs/decisions/321-cancel-and-refund.md): when the order was cancelled (ISO), or null. */
  cancelledAt: z.string().nullable(),
});
export type OrderSummary = z.infer<typeof orderSummary>;

export const getAllOrdersResponse = z.object({ success: z.literal(true), orders: z.array(orderSummary) });

/**
 * POST /order/createOrder (spec §7). Idempotent: returns the order a verified advance created.
 * The spec's fields are accepted for compatibility and ignored: totals come from the server.
 */
export const createOrderRequest = z.object({
  razorpay_order_id: z.string().max(64).optional(),
  user_id: z.unknown().optional(),
  service_id: z.unknown().optional(),
  discount: z.unknown().optional(),
  totalAmountOrder: z.unknown().optional(),
  currencyChange: z.unknown().optional(),
  couponCode: z.unknown().optional(),
  email: z.unknown().optional(),
});
export const createOrderResponse = z.object({ success: z.literal(true), order: orderSummary, message: z.string() });

// Operations (docs/decisions/280-contract-operations.md).

/** Returns the order a verified advance created (idempotent; client totals are ignored) */
export const postOrderCreateOrder = defineOperation({
  method: 'POST',
  path: '/api/v1/order/createOrder',
  body: createOrderRequest,
  responses: { 200: createOrderResponse },
});

/** The signed-in customer's orders */
export const getOrderGetAllOrdersUser = defineOperation({
  method: 'GET',
  path: '/api/v1/order/getAllOrders/user',
  responses: { 200: getAllOrdersResponse },
});
