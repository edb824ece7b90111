import { z } from 'zod';
import { orderMoneyFields } from './orders.ts';

export const orderIdParams = z.object({ id: z.string().min(1).max(40) });

/** GET /status/getStatus/order/:id (spec §3 "Status response") plus what the status page needs. */
export const statusResponse = z.object({
  success: z.literal(true),
  order_id: z.string(),
  /** Index of the last completed stage: 0 after the advance, 14 once delivered (spec §4). */
  completed_steps: z.number().int().min(0).max(14),
  statuses: z.array(z.string()),
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
export const stageChangeResponse = z.object({ success: z.literal(true), order_id: z.string(), completed_steps: z.number().int().min(0).max(14) });
