import { z } from 'zod';
import { defineOperation } from './operation.ts';
import { orderIdParams } from './invoices.ts';

// Remaining-payment reminders in the back office.
export const reminderJob = z.object({
  /** 1; 2 and more after stage 13 was undone and completed again (decision 098). */
  round: z.number().int(),
  step: z.number().int(),
  kind: z.enum(['due', 'reminder', 'founder']),
  dueAt: z.string(),
  state: z.enum(['pending', 'sent', 'cancelled', 'skipped']),
  reason: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type ReminderJob = z.infer<typeof reminderJob>;
/** One pause of an order's reminders; `resumedAt` null while it lasts. */
export const reminderPause = z.object({ pausedAt: z.string(), pausedBy: z.string().nullable(), resumedAt: z.string().nullable() });
export type ReminderPause = z.infer<typeof reminderPause>;
export const orderRemindersResponse = z.object({
  success: z.literal(true),
  paused: z.boolean(),
  reminders: z.array(reminderJob),
  /** Every pause and resume, oldest first (decision 098). */
  pauses: z.array(reminderPause),
});
export type OrderRemindersResponse = z.infer<typeof orderRemindersResponse>;
export const pauseRemindersBody = z.object({ paused: z.boolean() });

// Operations (docs/decisions/280-contract-operations.md).

/** An order's payment reminders */
export const getAdminOrdersReminders = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:id/reminders',
  params: orderIdParams,
  responses: { 200: orderRemindersResponse },
});

/** Pause or resume the reminders of an order */
export const putAdminOrdersRemindersPause = defineOperation({
  method: 'PUT',
  path: '/api/v1/admin/orders/:id/reminders/pause',
  params: orderIdParams,
  body: pauseRemindersBody,
  responses: { 200: orderRemindersResponse },
});
