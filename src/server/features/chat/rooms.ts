// The socket.io room of a chat: every socket that joined the chat, or wrote in it, is in it. The
// per-address socket bound (plugins/socket.ts) reads it to tell a socket in a chat from an idle one.
const CHAT_ROOM_PREFIX = 'chat:';
// An order's message thread (order-messages/socket-handlers.ts, `order:<publicId>`): a socket that
// follows one is in use as much as one in a chat, so the bound never evicts it either.
const ORDER_ROOM_PREFIX = 'order:';

export const chatRoom = (chatId: string) => `${CHAT_ROOM_PREFIX}${chatId}`;
export const orderRoom = (orderPublicId: string) => `${ORDER_ROOM_PREFIX}${orderPublicId}`;

/** The socket sits in at least one chat's or order thread's room. */
export const inSomeChat = (rooms: ReadonlySet<string>) =>
  [...rooms].some((r) => r.startsWith(CHAT_ROOM_PREFIX) || r.startsWith(ORDER_ROOM_PREFIX));
