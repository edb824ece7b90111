import { z } from 'zod';
import { defineOperation } from './operation.ts';

// What waits for whom (docs/decisions/213-action-counts.md): per order, what the customer has to do,
// and across orders, what the agency has to do. Counts only; each place to act has its own API.

/** What can wait for the customer on an order. `change`: quoted change requests waiting for their decision. */
export const CUSTOMER_WAITING_KINDS = ['brief', 'review', 'reply', 'change', 'payment', 'rating'] as const;
export type CustomerWaitingKind = (typeof CUSTOMER_WAITING_KINDS)[number];

export const orderActionsResponse = z.object({
  orders: z.array(
    z.object({
      orderId: z.string(),
      /** The number of completed stages (1–15). */
      stage: z.number().int(),
      /** The stage being worked on now, or the last one once all are done. */
      stageName: z.string(),
      /** Only kinds with a count above 0. */
      waiting: z.array(z.object({ kind: z.enum(CUSTOMER_WAITING_KINDS), count: z.number().int().positive() })),
    }),
  ),
  /** The sum of every count: the number on "Dashboard" in the navigation. */
  total: z.number().int(),
});
export type OrderActionsResponse = z.infer<typeof orderActionsResponse>;
export type OrderActions = OrderActionsResponse['orders'][number];

/**
 * What can wait for the agency. `changes_requested`: a design round's changes; `change_requested`
 * (added, docs/decisions/260-change-events-and-waiting.md): change requests waiting for a quote.
 * Added by docs/decisions/330-agency-inbox-kinds.md: `support_open` (a support request waiting for
 * the agency's answer, before its first-response target; `support_overdue` after it) and `pins`
 * (the customer's pins on designs and on the live site, until answered or resolved).
 * `customer_files` counts files only (a site pin's screenshot is part of its pin).
 */
export const AGENCY_WAITING_KINDS = [
  'brief_submitted',
  'customer_files',
  'changes_requested',
  'unread_messages',
  'support_overdue',
  'change_requested',
  'support_open',
  'pins',
] as const;
export type AgencyWaitingKind = (typeof AGENCY_WAITING_KINDS)[number];

export const adminActionsResponse = z.object({
  /** Oldest first. */
  items: z.array(
    z.object({
      kind: z.enum(AGENCY_WAITING_KINDS),
      orderId: z.string(),
      /** Since when it waits (ISO 8601). */
      since: z.string(),
      count: z.number().int().positive(),
    }),
  ),
});
export type AdminActionsResponse = z.infer<typeof adminActionsResponse>;
export type AdminActionItem = AdminActionsResponse['items'][number];

// Operations (docs/decisions/280-contract-operations.md).

/**
 * Per order of the signed-in customer: its stage and what waits for them (brief, review, reply, change, payment,
 * rating), with the total for the navigation's count
 */
export const getOrdersActions = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/actions',
  responses: { 200: orderActionsResponse },
});

/**
 * What waits for the agency across orders (brief submitted, new customer files, pins, changes requested, unread
 * messages, support waiting or past its target), oldest first
 */
export const getAdminActions = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/actions',
  responses: { 200: adminActionsResponse },
});
