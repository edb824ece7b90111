import type { SupportMessage, SupportOverviewResponse, SupportRequest } from '../../../contract/support.ts';
import { api } from '../../lib/api.ts';

// Support after delivery (decision 170) as the browser calls it. The customer's routes
// live under /api/v1/orders/{orderId}/support…, the founder's under /api/v1/admin/support….

export interface Thread {
  request: SupportRequest;
  messages: SupportMessage[];
}

const base = (orderId: string) => `orders/${encodeURIComponent(orderId)}`;

export const customerSupport = {
  overview: (orderId: string) => api<SupportOverviewResponse>('GET', `${base(orderId)}/support`),
  open: (orderId: string, body: { title: string; description: string; category: string; fileIds?: string[] }) =>
    api<{ request: SupportRequest }>('POST', `${base(orderId)}/support/requests`, body),
  thread: (orderId: string, requestId: string) => api<Thread>('GET', `${base(orderId)}/support/requests/${encodeURIComponent(requestId)}/messages`),
  write: (orderId: string, requestId: string, text: string, fileIds?: string[]) =>
    api<{ message: SupportMessage; request: SupportRequest }>('POST', `${base(orderId)}/support/requests/${encodeURIComponent(requestId)}/messages`, { text, fileIds }),
  reopen: (orderId: string, requestId: string) => api<{ request: SupportRequest }>('POST', `${base(orderId)}/support/requests/${encodeURIComponent(requestId)}/reopen`),
};

/** "Nov 25, 2027" (UTC: the window is counted in whole UTC days on the server). */
export const formatDay = (iso: string) => new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });

/**
 * "Support until Nov 25, 2027" / "Support ended on Nov 25, 2027" for an order's `supportUntil`
 * ( My Orders and the back office's customer page); null before delivery.
 */
export const supportLine = (supportUntil: string | null, now: number = Date.now()): string | null =>
  !supportUntil ? null : now < new Date(supportUntil).getTime() ? `Support until ${formatDay(supportUntil)}` : `Support ended on ${formatDay(supportUntil)}`;

export const STATE_LABELS: Record<string, string> = { open: 'Open', in_progress: 'In progress', resolved: 'Resolved', closed: 'Closed' };
export const CATEGORY_LABELS: Record<string, string> = { bug: 'Bug', change: 'Change', question: 'Question' };

/** The plan's state in words. */
export const PLAN_LABELS: Record<string, string> = {
  created: 'Not started',
  authenticated: 'Starting',
  active: 'Active',
  pending: 'Payment pending',
  halted: 'Halted (payments failed)',
  cancelled: 'Cancelled',
  completed: 'Ended',
};
