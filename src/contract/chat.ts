import { z } from 'zod';
import { safeString } from './text-policy.ts';
import { defineOperation } from './operation.ts';

// Live chat (spec §3 "Chat", §7 "Realtime socket"). The event names are the
// spec's; the extra events (chatSummaries, chatSummary, chatClosed, chatError, adminPresence,
// setContactEmail) are additions documented in docs/decisions/041-chat-socket-contract.md.
export const CHAT_EVENTS = {
  // client → server
  joinChat: 'joinChat',
  getChatHistory: 'getChatHistory',
  sendMessage: 'sendMessage',
  closeChat: 'closeChat',
  getActiveChats: 'getActiveChats',
  adminSendMessage: 'adminSendMessage',
  setContactEmail: 'setContactEmail',
  /** The visitor rates a closed chat 1–5, once (docs/decisions/347-chat-availability-canned-replies-csat.md). */
  rateChat: 'rateChat',
  // server → client
  newMessage: 'newMessage',
  chatHistory: 'chatHistory',
  activeChats: 'activeChats',
  chatSummaries: 'chatSummaries',
  chatSummary: 'chatSummary',
  chatClosed: 'chatClosed',
  chatError: 'chatError',
  adminPresence: 'adminPresence',
} as const;

export const SOCKET_PATH = '/socket.io';
export const CHAT_MESSAGE_MAX = 2000;

/** A chat id is the capability to join a conversation: 32 url-safe characters (192 random bits). */
export const chatId = z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'Unknown chat.');

// safeString: socket payloads do not pass the HTTP validator, so the string policy is in the schema.
export const chatText = safeString({ multiLine: true })
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, 'Please type a message.')
      .max(CHAT_MESSAGE_MAX, `Messages can be at most ${CHAT_MESSAGE_MAX.toLocaleString('en-US')} characters.`),
  );

export const chatSender = z.enum(['user', 'admin']);
export type ChatSender = z.infer<typeof chatSender>;

/**
 * The chat's two sides in the code's words (docs/decisions/349-role-words.md): the agency (the owner or
 * staff, from the back office) and the visitor (a customer or someone not signed in). A message's
 * sender on the wire and in chat_messages keeps the spec's values ('admin', 'user'); these two
 * functions are the one place that maps between them.
 */
export type ChatSide = 'agency' | 'visitor';
export const CHAT_SENDER = { agency: 'admin', visitor: 'user' } as const satisfies Record<ChatSide, ChatSender>;
export const chatSenderOf = (side: ChatSide): ChatSender => CHAT_SENDER[side];
export const chatSideOf = (sender: ChatSender): ChatSide => (sender === CHAT_SENDER.agency ? 'agency' : 'visitor');

export const chatMessage = z.object({
  id: z.string(),
  chatId: z.string(),
  sender: chatSender,
  message: z.string(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const chatSummary = z.object({
  chatId: z.string(),
  /** The visitor's name or e-mail when known (signed-in customer or offline contact e-mail). */
  name: z.string().nullable(),
  email: z.string().nullable(),
  lastMessage: z.string().nullable(),
  lastMessageAt: z.string().nullable(),
  unread: z.number().int(),
  state: z.enum(['waiting', 'open', 'closed']),
  createdAt: z.string(),
  /**
   * Additive (decision 347): seconds from the visitor's first message to the agency's first reply;
   * null while unanswered. Absent in the live updates sent with each message (the console keeps the one it has).
   */
  firstResponseSeconds: z.number().nullable().optional(),
});
export type ChatSummary = z.infer<typeof chatSummary>;

// Payloads received by the server (validated on receipt; unknown fields such as `sender` are dropped).
export const joinChatPayload = chatId;
export const sendMessagePayload = z.object({ chatId, message: chatText });
export const adminSendMessagePayload = sendMessagePayload;
export const setContactEmailPayload = z.object({ chatId, email: z.string().trim().toLowerCase().email().max(100) });
export const CHAT_RATING_COMMENT_MAX = 1000;
export const rateChatPayload = z.object({
  chatId,
  score: z.number().int('The score is a whole number from 1 to 5.').min(1, 'The score is from 1 to 5.').max(5, 'The score is from 1 to 5.'),
  comment: safeString({ multiLine: true })
    .transform((s) => s.trim())
    .pipe(
      z.string().max(CHAT_RATING_COMMENT_MAX, `A comment can be at most ${CHAT_RATING_COMMENT_MAX.toLocaleString('en-US')} characters.`),
    )
    .optional(),
});

export type ChatAck =
  | { ok: true; message?: ChatMessage; history?: ChatMessage[]; summaries?: ChatSummary[]; state?: ChatSummary['state'] }
  | { ok: false; code: string; message: string };
export interface ChatErrorEvent {
  event: string;
  code: string;
  message: string;
}
export interface AdminPresence {
  /** Someone answers now: an agency socket is connected, the console is "available" and it is within business hours. */
  online: boolean;
  /**
   * Additive (decision 347): why not — `away` (the console's switch) or `closed` (outside
   * CHAT_BUSINESS_HOURS) — and the next opening of the business hours (ISO), when to expect a reply.
   */
  reason?: 'away' | 'closed';
  expectReplyAt?: string | null;
}

// HTTP: POST /api/v1/chat/start (spec: {userId: 'guest'} → chatId). The server ignores userId and
// decides the owner from the bearer token.
export const chatStartRequest = z.object({ userId: z.string().max(100).optional() }).optional();
export const chatStartResponse = z.object({ chatId: z.string() });
export type ChatStartResponse = z.infer<typeof chatStartResponse>;

// HTTP: POST /api/v1/chat/unread — lets the tiny launcher show the badge without loading socket.io.
export const chatUnreadRequest = z.object({ chatId });
export const chatUnreadResponse = z.object({ unread: z.number().int(), state: z.enum(['waiting', 'open', 'closed']) });
export type ChatUnreadResponse = z.infer<typeof chatUnreadResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Start a live chat; the returned chatId is the capability to join it */
export const postChatStart = defineOperation({
  method: 'POST',
  path: '/api/v1/chat/start',
  body: chatStartRequest,
  responses: { 200: chatStartResponse },
});

/**
 * The same at the site's root: the spec's guest chat test page posts there (decision 107,
 * docs/decisions/302-routes-outside-the-contract.md). Named `Root` for the path with no segment.
 */
export const postRoot = defineOperation({
  method: 'POST',
  path: '/',
  body: chatStartRequest,
  responses: { 200: chatStartResponse },
});

/** Replies the visitor has not seen yet (the widget's badge before it connects) */
export const postChatUnread = defineOperation({
  method: 'POST',
  path: '/api/v1/chat/unread',
  body: chatUnreadRequest,
  responses: { 200: chatUnreadResponse },
});
