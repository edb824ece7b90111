// Delivery date (decision 147): the spec promises the website "within 4 weeks
// after final UI approval". Dates are UTC calendar days, 'YYYY-MM-DD', so every reader (customer,
// back office, e-mail) sees the same day whatever their clock.

import { formatDay } from './when.ts';

export const DEFAULT_DELIVERY_DAYS = 28;
const DAY_MS = 86_400_000;

const utcDay = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());

/** The due date of a UI approval at `approvedAt`: its UTC day plus `days`. */
export function dueDateAfter(approvedAt: Date, days: number): string {
  return new Date(utcDay(approvedAt) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from today (UTC) to the due date: 0 on the day, negative once overdue. */
export function daysLeft(dueDate: string, now: Date): number {
  return Math.round((Date.parse(`${dueDate}T00:00:00Z`) - utcDay(now)) / DAY_MS);
}

/** "Estimated delivery: December 23, 2026" — the date only, read in UTC. */
export function formatDueDate(dueDate: string): string {
  return formatDay(dueDate);
}

/** "Delivered on December 20, 2026": the delivery's UTC day, the same calendar as the estimate it replaces. */
export function formatDeliveredOn(deliveredAt: string): string {
  return formatDueDate(new Date(deliveredAt).toISOString().slice(0, 10));
}
