import { z } from 'zod';
import { orderParams } from './admin-orders.ts';
import { defineOperation } from './operation.ts';
import { multiLine } from './text-policy.ts';

// Order messages (decision 155): one thread per order between its customer and the
// agency. Customer routes: /api/v1/orders/{orderId}/messages…; the founder's are the same under
// /api/v1/admin/orders/{orderId}/messages…. Live: the socket event `orderMessage` (below) carries
// the same message shape to everyone who joined the order's room with `joinOrder`.

export const ORDER_MESSAGE_MAX = 5000;
export const ORDER_MESSAGE_FILES_MAX = 10;

export const orderMessage = z.object({
  id: z.string().uuid(),
  sender: z.enum(['customer', 'agency']),
  /** As written (line breaks kept); plain text, never HTML — clients render it as text. */
  text: z.string(),
  /** Files of the same order (see the order's files), in the order given. */
  fileIds: z.array(z.string().uuid()),
  createdAt: z.string(),
  /**
   * Who wrote it (docs/decisions/271-message-author-names.md). An agency message: the staff member's
   * display name and the brand, "Ravi · Webcraft Studio" (the brand alone when they have no name or
   * their account is gone) — never an e-mail address. A customer message: the customer's name, or null.
   */
  authorName: z.string().nullable(),
  /** Written by the signed-in reader themself (shown as "You"); another staff member's message is not. */
  mine: z.boolean(),
});
export type OrderMessage = z.infer<typeof orderMessage>;

export const orderMessagesParams = z.object({ orderId: z.string().min(1).max(40) });

/** The most messages one read of a thread answers (docs/decisions/341-one-rule-per-derived-value.md). */
export const ORDER_MESSAGES_PAGE_MAX = 100;

/**
 * GET …/messages?before=&limit=: a page of the thread. Without `before`, its newest `limit` messages
 * (all of them up to ORDER_MESSAGES_PAGE_MAX); with it, the `limit` messages written before that one.
 */
export const orderMessagesQuery = z.object({
  before: z.string().uuid('Not a message id.').optional(),
  limit: z.coerce.number().int().min(1).max(ORDER_MESSAGES_PAGE_MAX).default(ORDER_MESSAGES_PAGE_MAX),
});
export type OrderMessagesQuery = z.input<typeof orderMessagesQuery>;

/**
 * GET …/messages: the page's messages, oldest first; reading the newest page marks the thread read
 * for the reader's side (an earlier page marks nothing).
 */
export const orderMessagesResponse = z.object({
  success: z.literal(true),
  messages: z.array(orderMessage),
  /** The `before` that reads the messages written before this page; null when the page starts the thread. */
  earlierCursor: z.string().uuid().nullable(),
});
export type OrderMessagesResponse = z.infer<typeof orderMessagesResponse>;

export const postOrderMessageBody = z.object({
  text: multiLine(z.string())
    .trim()
    .min(1, 'Write a message.')
    .max(ORDER_MESSAGE_MAX, `A message can be at most ${ORDER_MESSAGE_MAX.toLocaleString('en')} characters.`),
  fileIds: z
    .array(z.string().uuid('Not a file id.'))
    .max(ORDER_MESSAGE_FILES_MAX, `At most ${ORDER_MESSAGE_FILES_MAX} files per message.`)
    .optional(),
});
export type PostOrderMessageBody = z.infer<typeof postOrderMessageBody>;

export const orderMessageResponse = z.object({ success: z.literal(true), message: orderMessage });

/** POST …/messages/read: the reader has seen the thread up to now (e.g. a live message arrived while it was open). */
export const markMessagesReadResponse = z.object({ success: z.literal(true), unreadMessages: z.literal(0) });

// Operations (docs/decisions/280-contract-operations.md): the customer's under /orders/:orderId, the
// founder's under /admin/orders/:id like every other /admin/orders/:id route.

/** The order's messages, oldest first; reading them marks them read (the customer's) */
export const getOrdersMessages = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/messages',
  params: orderMessagesParams,
  query: orderMessagesQuery,
  responses: { 200: orderMessagesResponse },
});

/** The order's messages, oldest first; reading them marks them read (the back office's) */
export const getAdminOrdersMessages = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:id/messages',
  params: orderParams,
  query: orderMessagesQuery,
  responses: { 200: orderMessagesResponse },
});

/** Sends a message on the order (the customer's) */
export const postOrdersMessages = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/messages',
  params: orderMessagesParams,
  body: postOrderMessageBody,
  responses: { 201: orderMessageResponse },
});

/** Sends a message on the order (the back office's) */
export const postAdminOrdersMessages = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:id/messages',
  params: orderParams,
  body: postOrderMessageBody,
  responses: { 201: orderMessageResponse },
});

/** Marks the thread read up to now (the customer's only: the founder's GET marks it) */
export const postOrdersMessagesRead = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/messages/read',
  params: orderMessagesParams,
  responses: { 200: markMessagesReadResponse },
});

// — socket.io (same connection as the chat, /socket.io) —
export const ORDER_SOCKET_EVENTS = {
  /** client → server, with an ack: `{ orderId }` → `{ ok: true }` or `{ ok: false, code, message }`. */
  joinOrder: 'joinOrder',
  /** client → server, with an ack: stop receiving the order's messages. */
  leaveOrder: 'leaveOrder',
  /** server → client: a new message of a joined order, `{ orderId, message }` … see orderMessageEvent. */
  orderMessage: 'orderMessage',
} as const;

export const joinOrderPayload = z.object({ orderId: z.string().min(1).max(40) });

/** The `orderMessage` event: the message shape of the API, plus the order it belongs to. */
export const orderMessageEvent = orderMessage.extend({ orderId: z.string() });
export type OrderMessageEvent = z.infer<typeof orderMessageEvent>;

export type OrderSocketAck = { ok: true } | { ok: false; code: string; message: string };
