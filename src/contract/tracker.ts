import { z } from 'zod';
import { orderMoneyFields } from './orders.ts';
import { defineOperation } from './operation.ts';

export const orderIdParams = z.object({ id: z.string().min(1).max(40) });

/** GET /status/getStatus/order/:id (spec §3 "Status response") plus what the status page needs. */
export const statusResponse = z.object({
  success: z.literal(true),
  order_id: z.string(),
  /** Index of the last completed stage: 0 after the advance, 14 once delivered (spec §4). */
  completed_steps: z.number().int().min(0).max(14),
  /** The spec's texts: each stage's completion in UTC (spec §2), or 'To be completed'. */
  statuses: z.array(z.string()),
  /** Additive (docs/decisions/335-one-rule-for-times.md): each stage's completion (ISO) or null; screens format it. */
  completedAt: z.array(z.string().nullable()),
  /** Major units, as the spec's client reads it. */
  remainingAmount: z.number(),
  ...orderMoneyFields,
  notes: z.array(z.string().nullable()),
  /** Only once the remaining payment is made. */
  deliveryUrl: z.string().nullable(),
  /** Estimated delivery, a UTC date 'YYYY-MM-DD': the UI approval's day + DELIVERY_DAYS_AFTER_UI_APPROVAL; null until approved (decision 147). */
  dueDate: z.string().nullable(),
  /** When the customer approved the UI design (ISO), or null. */
  uiApprovedAt: z.string().nullable(),
  /** When "Website Delivery" was completed (ISO), or null: once set, the page says "Delivered on …" instead of the estimate. */
  deliveredAt: z.string().nullable(),
  /**
   * Additive (docs/decisions/321-cancel-and-refund.md): when the agency cancelled the order (ISO),
   * or null. A cancelled order owes nothing more (`remainingAmount` 0) and takes no payment.
   */
  cancelledAt: z.string().nullable(),
});
export type StatusResponse = z.infer<typeof statusResponse>;

export const stageDate = z.object({
  stage: z.number().int(),
  name: z.string(),
  completedAt: z.string().nullable(),
  note: z.string().nullable(),
});
export const statusDatesResponse = z.object({ success: z.literal(true), order_id: z.string(), dates: z.array(stageDate) });

/** Admin: complete the next stage (back office puts a screen on it). */
export const completeStageRequest = z.object({
  note: z.string().trim().max(500).optional(),
  deliveryUrl: z.string().trim().url().max(500).optional(),
});
/** `completed_steps` means what it means in the status response: the index of the last completed stage. */
export const stageChangeResponse = z.object({
  success: z.literal(true),
  order_id: z.string(),
  completed_steps: z.number().int().min(0).max(14),
});

// Operations (docs/decisions/280-contract-operations.md).

/** Progress of one of your orders (15 stages) */
export const getStatusGetStatusOrderById = defineOperation({
  method: 'GET',
  path: '/api/v1/status/getStatus/order/:id',
  params: orderIdParams,
  responses: { 200: statusResponse },
});

/** Completion date and note of every stage of your order */
export const getStatusGetStatusDatesOrderById = defineOperation({
  method: 'GET',
  path: '/api/v1/status/getStatusDates/order/:id',
  params: orderIdParams,
  responses: { 200: statusDatesResponse },
});

/** Admin: complete the next stage (optional note and delivery link) */
export const postTrackerOrderCompleteNextStage = defineOperation({
  method: 'POST',
  path: '/api/v1/tracker/order/:id/complete-next-stage',
  params: orderIdParams,
  body: completeStageRequest,
  responses: { 200: stageChangeResponse },
});

/** Admin: take back the last completed stage */
export const postTrackerOrderUndoLastStage = defineOperation({
  method: 'POST',
  path: '/api/v1/tracker/order/:id/undo-last-stage',
  params: orderIdParams,
  responses: { 200: stageChangeResponse },
});
