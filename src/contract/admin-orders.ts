import { z } from 'zod';
import { adminMaintenance } from './maintenance.ts';
import { INTERNAL_NOTE_MAX, NOTE_MAX } from '../domain/admin.ts';
import { pageInfo, pageQuery } from './admin.ts';
import { multiLine } from './text-policy.ts';
import { defineOperation } from './operation.ts';
import { priceLineSchema } from './pricing.ts';

// Back office: orders, payments, the 15-stage tracker, delivery link and internal note.

export { NOTE_MAX, INTERNAL_NOTE_MAX } from '../domain/admin.ts';

/** Orders are addressed by their public id (e.g. ORDXXXXXXXXXX), never the internal uuid. */
export const orderParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an order id.') });

export const orderListQuery = pageQuery.extend({
  /** Order id, customer e-mail or name. */
  q: z.string().trim().max(200).optional(),
  stage: z.coerce.number().int().min(0).max(15).optional(),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

// Optional fields are the owner's: absent in staff's answers (server/features/admin/permissions.ts
// OWNER_ONLY_FIELDS, decision 232).
const installment = z.object({
  amount: z.number().optional(),
  state: z.enum(['due', 'pending', 'paid']),
  paidAt: z.string().nullable(),
});

export const adminOrderRow = z.object({
  id: z.string(),
  createdAt: z.string(),
  customerId: z.string(),
  customerEmail: z.string(),
  customerName: z.string().nullable(),
  currency: z.string().optional(),
  /** The order account's `charged` and `balanceDue` (docs/decisions/320-order-ledger.md), minor units. */
  total: z.number().optional(),
  balanceDue: z.number().optional(),
  advance: installment,
  remaining: installment,
  completedStages: z.number(),
  state: z.string(),
  /** First-touch source (decision 097): "newsletter / email / spring" or "via google.com"; null if none. Plain text. */
  source: z.string().nullable(),
  /** No brief submitted yet and "UI Started" not completed (the brief still matters). */
  briefPending: z.boolean(),
  /** When the customer approved the UI design (ISO), or null; it sets `dueDate` (decision 147). */
  uiApprovedAt: z.string().nullable(),
  /** Delivery due date, a UTC date 'YYYY-MM-DD', or null until the UI approval. */
  dueDate: z.string().nullable(),
  /** Whole days from today (UTC) to `dueDate`: negative when overdue; null without a date or once delivered. */
  daysLeft: z.number().int().nullable(),
  /** Messages from the customer no one of the agency has read yet. */
  unreadMessages: z.number().int().min(0),
});
export type AdminOrderRow = z.infer<typeof adminOrderRow>;

export const orderListResponse = z.object({ items: z.array(adminOrderRow), pageInfo });
export type OrderListResponse = z.infer<typeof orderListResponse>;

export const adminPayment = z.object({
  provider: z.string(),
  providerOrderId: z.string(),
  providerPaymentId: z.string().nullable(),
  amount: z.number(),
  currency: z.string(),
  state: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /** A duplicate payment: 'needed' until the founder marks it refunded. */
  refundState: z.enum(['needed', 'refunded']).nullable(),
  refundReference: z.string().nullable(),
  refundedAt: z.string().nullable(),
});

export const orderDetailResponse = z.object({
  order: adminOrderRow.extend({
    listPrice: z.number().optional(),
    price: z.number().optional(),
    discountPercent: z.number().optional(),
    discount: z.number().optional(),
    fee: z.number().optional(),
    couponCode: z.string().nullable().optional(),
    /**
     * The order's own price as its quote and documents describe it (src/domain/price-lines.ts), ending
     * with the order total; `total` above is what the account has charged in all, changes included.
     */
    lines: z.array(priceLineSchema).optional(),
    deliveryUrl: z.string().nullable(),
    internalNote: z.string().nullable(),
  }),
  customer: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    phoneCode: z.string().nullable(),
    phoneNumber: z.string().nullable(),
  }),
  installments: z.array(
    installment.extend({
      kind: z.enum(['advance', 'remaining', 'change']),
      currency: z.string().optional(),
      providerPaymentId: z.string().nullable().optional(),
      attempts: z.array(adminPayment).optional(),
    }),
  ),
  /** All 15 stages in order; completedAt null for the ones still to do. */
  stages: z.array(z.object({ stage: z.number(), completedAt: z.string().nullable(), note: z.string().nullable() })),
  /**
   * The Terms and Conditions the customer agreed to at the advance checkout (chargeback evidence,
   * decision 146): the version (hash of the wording), when, and a sha-256 of order id, client
   * address and user agent (null when no request placed the order). Null for older orders.
   */
  termsAcceptance: z.object({ version: z.string(), acceptedAt: z.string(), clientHash: z.string().nullable() }).nullable(),
  /** The maintenance plan: state, next charge, charges with invoices; null when the order never had one. */
  maintenance: adminMaintenance.nullable(),
});
export type OrderDetailResponse = z.infer<typeof orderDetailResponse>;

export const completeStageBody = z.object({
  /** Shown to the customer on the tracker and in the e-mail. */
  note: multiLine(z.string().trim().max(NOTE_MAX, `The note can be at most ${NOTE_MAX} characters.`)).optional(),
});
export const undoStageBody = z.object({
  reason: multiLine(
    z.string().trim().min(1, 'Say why the stage is taken back.').max(NOTE_MAX, `The reason can be at most ${NOTE_MAX} characters.`),
  ),
});
export const deliveryLinkBody = z.object({ url: z.string().trim().min(1).max(2000) });
export const internalNoteBody = z.object({
  note: multiLine(z.string().max(INTERNAL_NOTE_MAX, `The note can be at most ${INTERNAL_NOTE_MAX} characters.`)),
});

export const stageChangeResponse = z.object({ orderId: z.string(), completedStages: z.number() });

/**
 * Refund one payment whole: a duplicate payment, or what is left of a received one outside a cancel
 * (docs/decisions/321-cancel-and-refund.md); with Razorpay keys set the refund is asked of Razorpay.
 */
export const refundBody = z.object({
  providerPaymentId: z.string().trim().min(1).max(64),
  /** Required unless the provider issues the refund (its refund id is then the reference). */
  reference: z.string().trim().max(200, 'The reference can be at most 200 characters.').optional(),
});
export const refundResponse = z.object({
  providerPaymentId: z.string(),
  refundState: z.literal('refunded'),
  reference: z.string(),
  refundedAt: z.string(),
  via: z.enum(['provider', 'manual']),
});
export const deliveryLinkResponse = z.object({ deliveryUrl: z.string() });
export const internalNoteResponse = z.object({ note: z.string() });

// Operations (docs/decisions/280-contract-operations.md).

/** Orders, newest first: search by id, e-mail or name; filter by stage */
export const getAdminOrders = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders',
  query: orderListQuery,
  responses: { 200: orderListResponse },
});

/** One order: customer, payments, 15 stages, delivery link, internal note */
export const getAdminOrdersById = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:id',
  params: orderParams,
  responses: { 200: orderDetailResponse },
});

/** Complete the next tracker stage with an optional customer-visible note (customer e-mailed) */
export const postAdminOrdersStagesNext = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:id/stages/next',
  params: orderParams,
  body: completeStageBody,
  responses: { 200: stageChangeResponse },
});

/** Undo the last stage the founder completed, with a reason */
export const postAdminOrdersStagesUndo = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:id/stages/undo',
  params: orderParams,
  body: undoStageBody,
  responses: { 200: stageChangeResponse },
});

/** Set the website link (shown to the customer once fully paid) */
export const putAdminOrdersDeliveryLink = defineOperation({
  method: 'PUT',
  path: '/api/v1/admin/orders/:id/delivery-link',
  params: orderParams,
  body: deliveryLinkBody,
  responses: { 200: deliveryLinkResponse },
});

/** Refund one payment whole, a duplicate or a received one (through Razorpay when its keys are set), audited */
export const postAdminOrdersRefunds = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:id/refunds',
  params: orderParams,
  body: refundBody,
  responses: { 200: refundResponse },
});

/** Set the internal note (never shown to the customer) */
export const putAdminOrdersInternalNote = defineOperation({
  method: 'PUT',
  path: '/api/v1/admin/orders/:id/internal-note',
  params: orderParams,
  body: internalNoteBody,
  responses: { 200: internalNoteResponse },
});
