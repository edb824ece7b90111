import { call } from '../../lib/call.ts';
import {
  postOrdersSupportRequests,
  postOrdersSupportRequestsMessages,
  postOrdersSupportRequestsReopen,
  postOrdersSupportRequestsResolve,
  type SupportCategory,
} from '../../../contract/support.ts';
import { postOrdersSupportRequestsRating } from '../../../contract/ratings.ts';
import { formatDate } from '../../../domain/when.ts';

// Support after delivery (decision 170) as the browser calls it. The customer's routes
// live under /api/v1/orders/{orderId}/support…, the founder's under /api/v1/admin/support….

const order = (orderId: string) => ({ params: { orderId } });
const request = (orderId: string, requestId: string) => ({ params: { orderId, requestId } });

export const customerSupport = {
  open: (orderId: string, body: { title: string; description: string; category: SupportCategory; fileIds?: string[] }) =>
    call(postOrdersSupportRequests, { ...order(orderId), body }),
  write: (orderId: string, requestId: string, text: string, fileIds?: string[]) =>
    call(postOrdersSupportRequestsMessages, { ...request(orderId, requestId), body: { text, fileIds } }),
  reopen: (orderId: string, requestId: string) => call(postOrdersSupportRequestsReopen, request(orderId, requestId)),
  // The customer closes and rates their own request (docs/decisions/214-ratings.md).
  resolve: (orderId: string, requestId: string) => call(postOrdersSupportRequestsResolve, request(orderId, requestId)),
  rate: (orderId: string, requestId: string, body: { score: number; comment?: string }) =>
    call(postOrdersSupportRequestsRating, { ...request(orderId, requestId), body }),
};

/** "Nov 25, 2027": the day of the instant where the viewer is (docs/decisions/335-one-rule-for-times.md). */
export const formatDay = (iso: string) => formatDate(iso, undefined, true);

/**
 * "Support until Nov 25, 2027" / "Support ended on Nov 25, 2027" for an order's `supportUntil`
 * ( My Orders and the back office's customer page); null before delivery.
 */
export const supportLine = (supportUntil: string | null, now: number = Date.now()): string | null =>
  !supportUntil
    ? null
    : now < new Date(supportUntil).getTime()
      ? `Support until ${formatDay(supportUntil)}`
      : `Support ended on ${formatDay(supportUntil)}`;

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
