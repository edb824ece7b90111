import { z } from 'zod';

// Remaining-payment reminders in the back office (issue 14.2).
export const reminderJob = z.object({
  step: z.number().int(),
  kind: z.enum(['due', 'reminder', 'founder']),
  dueAt: z.string(),
  state: z.enum(['pending', 'sent', 'cancelled', 'skipped']),
  reason: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type ReminderJob = z.infer<typeof reminderJob>;
export const orderRemindersResponse = z.object({ success: z.literal(true), paused: z.boolean(), reminders: z.array(reminderJob) });
export type OrderRemindersResponse = z.infer<typeof orderRemindersResponse>;
export const pauseRemindersBody = z.object({ paused: z.boolean() });
