// The socket.io room of a chat: every socket that joined the chat, or wrote in it, is in it. The
// per-address socket bound (plugins/socket.ts) reads it to tell a socket in a chat from an idle one.
const CHAT_ROOM_PREFIX = 'chat:';

export const chatRoom = (chatId: string) => `${CHAT_ROOM_PREFIX}${chatId}`;

/** The socket sits in at least one chat's room. */
export const inSomeChat = (rooms: ReadonlySet<string>) => [...rooms].some((r) => r.startsWith(CHAT_ROOM_PREFIX));
