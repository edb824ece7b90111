import { SUPPORT_SOCKET_EVENTS, type SupportMessageEvent, type SupportRequestEvent } from '../../../contract/support.ts';
import type { AppDeps } from '../../deps.ts';
import type { ChatServer } from '../../plugins/socket.ts';
import { orderRoom } from '../chat/rooms.ts';

// Live support: messages and state changes go to the order's room, the one a
// customer's order page and the founder's pages join with `joinOrder` (order-messages), under their
// own event names. After commit, so nobody hears of what is not stored; the adapter carries them
// to sockets on every instance. GET …/messages reads the same thread without a socket.

export function registerSupportSocket(io: ChatServer, deps: AppDeps) {
  deps.events.afterCommit('support.message', async (m) => {
    const event: SupportMessageEvent = { orderId: m.orderPublicId, requestId: m.requestId, id: m.messageId, sender: m.sender, text: m.text, fileIds: m.fileIds, createdAt: m.at.toISOString() };
    io.to(orderRoom(m.orderPublicId)).emit(SUPPORT_SOCKET_EVENTS.supportMessage, event);
  });
  deps.events.afterCommit('support.request', async (r) => {
    const event: SupportRequestEvent = {
      orderId: r.orderPublicId,
      id: r.requestId,
      title: r.title,
      category: r.category,
      state: r.state,
      createdAt: r.createdAt.toISOString(),
      lastMessageAt: r.lastMessageAt.toISOString(),
    };
    io.to(orderRoom(r.orderPublicId)).emit(SUPPORT_SOCKET_EVENTS.supportRequest, event);
  });
}
