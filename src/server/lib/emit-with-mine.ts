import { userRoom, type ChatServer } from '../plugins/socket.ts';

/**
 * Emits a message to a room with `mine` right for each reader (docs/decisions/271-message-author-names.md):
 * the writer's own sockets (their user room) hear `mine: true`, everyone else in the room `mine: false`.
 * The writer's sockets outside the room hear it too; the screens take only their own order's messages.
 */
export function emitWithMine<T extends { mine: boolean }>(io: ChatServer, room: string, event: string, writerUserId: string | null, payload: T) {
  if (!writerUserId) return void io.to(room).emit(event, { ...payload, mine: false });
  io.to(room).except(userRoom(writerUserId)).emit(event, { ...payload, mine: false });
  io.to(userRoom(writerUserId)).emit(event, { ...payload, mine: true });
}
