import { z } from 'zod';
import { pageInfo, pageQuery } from './admin.ts';
import { multiLine } from './text-policy.ts';
import { defineOperation } from './operation.ts';
import { errorResponses, errorResponse } from './common.ts';
import { orderParams } from './admin-orders.ts';

// Support after delivery (decision 170). Customer routes, bearer token and the
// caller's own DELIVERED order (anything else: 404):
//   GET  /api/v1/orders/{orderId}/support
//   POST /api/v1/orders/{orderId}/support/requests                         → 201 { request } | 402 SUPPORT_ENDED
//   GET|POST /api/v1/orders/{orderId}/support/requests/{requestId}/messages
//   POST /api/v1/orders/{orderId}/support/requests/{requestId}/reopen       (only from `resolved`)
// Founder (admin guard, audited writes):
//   GET  /api/v1/admin/support?state=open|in_progress|resolved|closed     (oldest waiting first)
//   GET  /api/v1/admin/support/{requestId}                                 (the request and its thread)
//   POST /api/v1/admin/support/{requestId}/messages
//   POST /api/v1/admin/support/{requestId}/state { state }
//   GET  /api/v1/admin/orders/{id}/support                                 (the order's window and requests)
// Live: the socket event `supportMessage` to the order's room (`joinOrder` of order messages).

export const SUPPORT_CATEGORIES = ['bug', 'change', 'question'] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];
/** open → in_progress → resolved → closed; closed automatically SUPPORT_AUTO_CLOSE_DAYS after resolved. */
export const SUPPORT_STATES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type SupportState = (typeof SUPPORT_STATES)[number];
export const SUPPORT_AUTO_CLOSE_DAYS = 7;
/** The offer of the maintenance plan is mailed this many days before support ends. */
export const SUPPORT_OFFER_DAYS_BEFORE_END = 30;
export const SUPPORT_LIMITS = { title: 120, description: 5000, message: 5000, files: 10 } as const;
/** The error code of a request refused because support has ended (HTTP 402). */
export const SUPPORT_ENDED = 'SUPPORT_ENDED';

const fileIds = z.array(z.string().uuid('Not a file id.')).max(SUPPORT_LIMITS.files, `At most ${SUPPORT_LIMITS.files} files.`).optional();

export const supportParams = z.object({ orderId: z.string().min(1).max(40) });
export const supportRequestParams = supportParams.extend({ requestId: z.uuid('Not a request id.') });
export const adminSupportRequestParams = z.object({ requestId: z.uuid('Not a request id.') });

export const supportRequestSummary = z.object({
  id: z.string(),
  title: z.string(),
  category: z.enum(SUPPORT_CATEGORIES),
  state: z.enum(SUPPORT_STATES),
  createdAt: z.string(),
  lastMessageAt: z.string(),
});
export type SupportRequestSummary = z.infer<typeof supportRequestSummary>;

/** A request with what was written when it was opened. */
export const supportRequest = supportRequestSummary.extend({
  description: z.string(),
  fileIds: z.array(z.string()),
  resolvedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type SupportRequest = z.infer<typeof supportRequest>;

export const supportPlan = z.object({
  state: z.string(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** A plan subscribed during the included support: its first charge, when that support ends (ISO); null once it started or when it started at once. */
  startsAt: z.string().nullable(),
});

/** The maintenance plan as offered on the Support tab, before the button (docs/decisions/233-maintenance-starts-after-included-support.md). */
export const planOffer = z.object({
  /** Minor units of `currency`, a month. */
  monthlyPrice: z.number().int(),
  currency: z.string(),
  /** "₹4,000.00" */
  priceLabel: z.string(),
  /** GST is added to the price for this buyer (the label then reads "+ GST"). */
  plusGst: z.boolean(),
  /**
   * Additive (docs/decisions/322-maintenance-plan-gst.md): the plan's monthly quote for this buyer —
   * GST inside the price (PRICES_INCLUDE_TAX), what is charged each month with its label, the
   * taxable value and the tax lines (CGST + SGST, IGST, or none).
   */
  gstIncluded: z.boolean().optional(),
  total: z.number().int().optional(),
  totalLabel: z.string().optional(),
  taxableValue: z.number().int().optional(),
  taxes: z
    .array(z.object({ kind: z.enum(['CGST', 'SGST', 'IGST']), rate: z.number(), amount: z.number().int(), label: z.string() }))
    .optional(),
  /** When a plan subscribed now would start: the end of the included support (ISO), or null for at once. */
  startsAt: z.string().nullable(),
});

/** GET …/support */
export const supportOverviewResponse = z.object({
  success: z.literal(true),
  /** Delivery + SUPPORT_DAYS, or the end of the period a plan has paid for when later (ISO). */
  supportUntil: z.string().nullable(),
  covered: z.boolean(),
  plan: supportPlan.nullable(),
  /** Additive (decision 233): the plan's price and start, shown before the Subscribe button. */
  planOffer: planOffer.optional(),
  requests: z.array(supportRequestSummary),
  /** "We answer within N h": the first-response target the founder works to (docs/decisions/214-ratings.md). */
  responseTargetHours: z.number(),
});
export type SupportOverviewResponse = z.infer<typeof supportOverviewResponse>;

export const createSupportRequestBody = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Give the request a title.')
    .max(SUPPORT_LIMITS.title, `A title can be at most ${SUPPORT_LIMITS.title} characters.`),
  description: multiLine(z.string())
    .trim()
    .min(1, 'Describe what you need.')
    .max(SUPPORT_LIMITS.description, `A description can be at most ${SUPPORT_LIMITS.description.toLocaleString('en')} characters.`),
  category: z.enum(SUPPORT_CATEGORIES, { message: 'Choose bug, change or question.' }),
  fileIds,
});
export type CreateSupportRequestBody = z.infer<typeof createSupportRequestBody>;

export const supportRequestResponse = z.object({ success: z.literal(true), request: supportRequest });

export const supportMessage = z.object({
  id: z.string(),
  sender: z.enum(['customer', 'agency']),
  /** As written (line breaks kept); plain text, never HTML. */
  text: z.string(),
  fileIds: z.array(z.string()),
  createdAt: z.string(),
  /** Who wrote it, as on order messages (docs/decisions/271-message-author-names.md): "Ravi · Webcraft Studio", the customer's name, or null. */
  authorName: z.string().nullable(),
  /** Written by the signed-in reader themself ("You"). */
  mine: z.boolean(),
});
export type SupportMessage = z.infer<typeof supportMessage>;

/** GET …/messages: the request and its thread, oldest first (reading marks the reader's notices read). */
export const supportMessagesResponse = z.object({ success: z.literal(true), request: supportRequest, messages: z.array(supportMessage) });

export const postSupportMessageBody = z.object({
  text: multiLine(z.string())
    .trim()
    .min(1, 'Write a message.')
    .max(SUPPORT_LIMITS.message, `A message can be at most ${SUPPORT_LIMITS.message.toLocaleString('en')} characters.`),
  fileIds,
});
export type PostSupportMessageBody = z.infer<typeof postSupportMessageBody>;

export const supportMessageResponse = z.object({ success: z.literal(true), message: supportMessage, request: supportRequest });

// — the founder —

export const adminSupportQuery = pageQuery.extend({
  /** Without it: every request not closed. */
  state: z.enum(SUPPORT_STATES).optional(),
});

export const adminSupportItem = supportRequestSummary.extend({
  orderId: z.string(),
  customerEmail: z.string(),
  customerName: z.string().nullable(),
  lastCustomerMessageAt: z.string(),
  /** Since when the customer waits for an answer; null when nobody waits. */
  waitingSince: z.string().nullable(),
  /** Seconds since the customer's last message (or the request, or its reopening). */
  secondsSinceCustomerMessage: z.number().int(),
  /** Waiting longer than SUPPORT_FIRST_RESPONSE_HOURS for the agency (open or in progress). */
  pastResponseTarget: z.boolean(),
  supportUntil: z.string().nullable(),
});
export type AdminSupportItem = z.infer<typeof adminSupportItem>;

export const adminSupportListResponse = z.object({
  success: z.literal(true),
  responseTargetHours: z.number(),
  items: z.array(adminSupportItem),
  pageInfo,
});
export type AdminSupportListResponse = z.infer<typeof adminSupportListResponse>;

export const adminSupportDetailResponse = z.object({
  success: z.literal(true),
  request: supportRequest,
  item: adminSupportItem,
  messages: z.array(supportMessage),
});

export const setSupportStateBody = z.object({
  state: z.enum(SUPPORT_STATES, { message: 'State must be open, in_progress, resolved or closed.' }),
});

// — socket.io (the order's room, joined with `joinOrder` of order messages) —
export const SUPPORT_SOCKET_EVENTS = {
  /** server → client: a new message on a support request of a joined order. */
  supportMessage: 'supportMessage',
  /** server → client: a request of a joined order changed state. */
  supportRequest: 'supportRequest',
} as const;
export const supportMessageEvent = supportMessage.extend({ orderId: z.string(), requestId: z.string() });
export type SupportMessageEvent = z.infer<typeof supportMessageEvent>;
export const supportRequestEvent = supportRequestSummary.extend({ orderId: z.string() });
export type SupportRequestEvent = z.infer<typeof supportRequestEvent>;

// Operations (docs/decisions/280-contract-operations.md).

/** The order's support: until when it is covered, the maintenance plan, the requests (newest first) */
export const getOrdersSupport = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/support',
  params: supportParams,
  responses: { 200: supportOverviewResponse },
});

/** Opens a support request (bug, change or question), optionally with files of the order; 402 SUPPORT_ENDED once support has ended */
export const postOrdersSupportRequests = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/support/requests',
  params: supportParams,
  body: createSupportRequestBody,
  responses: { 201: supportRequestResponse },
  errors: { 402: errorResponse, ...errorResponses },
});

/** A request and its thread, oldest first (reading marks the customer's support notices read) */
export const getOrdersSupportRequestsMessages = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/support/requests/:requestId/messages',
  params: supportRequestParams,
  responses: { 200: supportMessagesResponse },
});

/** Writes on a request (plain text, line breaks kept; files of the order). A message on a resolved request reopens it; a closed one takes none (409) */
export const postOrdersSupportRequestsMessages = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/support/requests/:requestId/messages',
  params: supportRequestParams,
  body: postSupportMessageBody,
  responses: { 201: supportMessageResponse },
});

/** Reopens a resolved request (409 from any other state) */
export const postOrdersSupportRequestsReopen = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/support/requests/:requestId/reopen',
  params: supportRequestParams,
  responses: { 200: supportRequestResponse },
});

/** The customer marks an open or in-progress request resolved (409 from any other state); it can then be rated */
export const postOrdersSupportRequestsResolve = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/support/requests/:requestId/resolve',
  params: supportRequestParams,
  responses: { 200: supportRequestResponse },
});

/** The support queue: requests of a state (default: all but closed), the longest-waiting customer first, flagged past the first-response target */
export const getAdminSupport = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/support',
  query: adminSupportQuery,
  responses: { 200: adminSupportListResponse },
});

/** A support request with its order, wait and thread */
export const getAdminSupportByRequestId = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/support/:requestId',
  params: adminSupportRequestParams,
  responses: { 200: adminSupportDetailResponse },
});

/** Answers a support request (audited; ends the customer's wait) */
export const postAdminSupportMessages = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/support/:requestId/messages',
  params: adminSupportRequestParams,
  body: postSupportMessageBody,
  responses: { 201: supportMessageResponse },
});

/** Sets the state of a support request (audited; the same state again is a 409) */
export const postAdminSupportState = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/support/:requestId/state',
  params: adminSupportRequestParams,
  body: setSupportStateBody,
  responses: { 200: supportRequestResponse },
});

/** An order's support window, plan and requests (the order page of the back office) */
export const getAdminOrdersSupport = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:id/support',
  params: orderParams,
  responses: { 200: supportOverviewResponse },
});
