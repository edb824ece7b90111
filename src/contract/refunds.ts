import { z } from 'zod';
import { orderParams } from './admin-orders.ts';
import { multiLine } from './text-policy.ts';
import { defineOperation } from './operation.ts';

// Cancelling an order and the refunds of its payments (docs/decisions/321-cancel-and-refund.md).
// Amounts are minor units of the order's currency.

/** The longest cancel reason (kept on the order and in the audit log). */
export const CANCEL_REASON_MAX = 500;

export const cancelOrderBody = z.object({
  /** Why the order is cancelled: kept on the order, written in the audit log and the customer's mail. */
  reason: multiLine(
    z
      .string()
      .trim()
      .min(1, 'Say why the order is cancelled.')
      .max(CANCEL_REASON_MAX, `The reason can be at most ${CANCEL_REASON_MAX} characters.`),
  ),
  /** What goes back to the customer, 0 to what was paid (net of earlier refunds). */
  refundAmount: z.number().int('The refund amount is a whole number of minor units.').min(0, 'The refund amount cannot be negative.'),
});
export type CancelOrderBody = z.infer<typeof cancelOrderBody>;

export const REFUND_STATUSES = ['pending', 'processed', 'failed'] as const;
export const REFUND_ORIGINS = ['cancel', 'duplicate', 'dashboard', 'manual'] as const;

export const cancelOrderResponse = z.object({
  order: z.object({ state: z.literal('cancelled') }),
  /** One refund per payment the amount was split over (none when nothing is refunded). */
  refunds: z.array(z.object({ id: z.string(), paymentId: z.string(), amount: z.number().int(), status: z.enum(REFUND_STATUSES) })),
});
export type CancelOrderResponse = z.infer<typeof cancelOrderResponse>;

/** One refund of an order, as the back office lists it. */
export const adminRefund = z.object({
  id: z.string(),
  /** The provider's payment id the money goes back to. */
  paymentId: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(REFUND_STATUSES),
  origin: z.enum(REFUND_ORIGINS),
  /** The provider's refund id (rfnd_…), or the reference typed for a refund recorded by hand; null until the provider answered. */
  reference: z.string().nullable(),
  testMode: z.boolean(),
  createdAt: z.string(),
  processedAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  failureReason: z.string().nullable(),
  /** The refund voucher or credit note issued when it was processed. */
  document: z.object({ id: z.string(), number: z.string(), kind: z.string() }).nullable(),
});
export type AdminRefund = z.infer<typeof adminRefund>;

export const orderRefundsResponse = z.object({
  currency: z.string(),
  refunds: z.array(adminRefund),
  cancel: z.object({
    /** The order is cancelled: when, by whom's reason. */
    cancelledAt: z.string().nullable(),
    reason: z.string().nullable(),
    /** Whether it may be cancelled now, and if not why (already cancelled, paid and delivered). */
    allowed: z.boolean(),
    refusal: z.string().nullable(),
    /** Paid so far, net of refunds pending or processed: the most a cancel may refund. */
    maxRefund: z.number().int(),
    /** The terms' refund (docs/decisions/321-cancel-and-refund.md): the whole advance before "UI Started", nothing after. */
    defaultRefund: z.number().int(),
    /** One sentence saying why the default is what it is. */
    defaultReason: z.string(),
  }),
});
export type OrderRefundsResponse = z.infer<typeof orderRefundsResponse>;

export const refundParams = z.object({ id: z.string().uuid('Not a refund id.') });

/** Cancel the order and refund the amount chosen through the payment provider (owner, step-up, Idempotency-Key) */
export const postAdminOrdersCancel = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:id/cancel',
  params: orderParams,
  body: cancelOrderBody,
  responses: { 200: cancelOrderResponse },
});

/** The order's refunds (every origin) and what a cancel may refund now */
export const getAdminOrdersRefunds = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:id/refunds',
  params: orderParams,
  responses: { 200: orderRefundsResponse },
});

/** Ask the provider again for a refund that failed */
export const postAdminRefundsRetry = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/refunds/:id/retry',
  params: refundParams,
  responses: { 200: adminRefund },
});
