import { and, eq, inArray, or } from 'drizzle-orm';
import { ERASED_TEXT } from '../../../domain/deleted-account.ts';
import type { AppDeps } from '../../deps.ts';
import { orderMessages } from '../../db/schema/order-messages.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import { ORDER_SOCKET_EVENTS, type OrderMessageEvent } from '../../../contract/order-messages.ts';
import type { ChatServer } from '../../plugins/socket.ts';
import { orderRoom } from '../chat/rooms.ts';
import { authorNameOf, fileInMessage } from './messages.ts';
import { userRoom } from '../../plugins/socket.ts';
import { users } from '../../db/schema/platform.ts';

const nameOf = async (deps: AppDeps, userId: string | null) =>
  userId ? ((await deps.db.select({ name: users.name }).from(users).where(eq(users.id, userId)))[0]?.name ?? null) : null;

/**
 * What a deleted person wrote on their orders' threads (decision 192) is replaced by a neutral
 * marker: the rows stay, so the agency's answers keep their place in the thread and the files
 * attached to them (project material, kept) still have their message.
 */
export function subscribeOrderMessages(deps: AppDeps) {
  // A file attached to a message stays readable with it: it cannot be deleted (decision 142).
  deps.queries.fileInUse.push(fileInMessage);
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx
      .update(orderMessages)
      .set({ text: ERASED_TEXT })
      .where(or(eq(orderMessages.senderUserId, e.userId), and(eq(orderMessages.sender, 'customer'), inArray(orderMessages.orderId, orderIdsOf(e.userId)))));
  });
}

/**
 * Live order messages: a message is broadcast to the order's room after its transaction committed,
 * so nobody hears of a message that is not stored; through the adapter it reaches sockets on every
 * instance. Lossy by nature (a socket may be gone): the thread is read again on join.
 */
export function broadcastOrderMessages(io: ChatServer, deps: AppDeps) {
  deps.events.afterCommit('order.message', async (m) => {
    const base: OrderMessageEvent = {
      orderId: m.orderPublicId,
      id: m.messageId,
      sender: m.sender,
      text: m.text,
      fileIds: m.fileIds,
      createdAt: m.at.toISOString(),
      authorName: authorNameOf(m.sender, await nameOf(deps, m.senderUserId), deps.config.BRAND_NAME),
      mine: false,
    };
    // "mine" differs per reader: the writer's own sockets (their user room) hear it as theirs, the
    // rest of the order's room (the other side, other staff) as someone else's.
    const room = orderRoom(m.orderPublicId);
    if (m.senderUserId) {
      io.to(room).except(userRoom(m.senderUserId)).emit(ORDER_SOCKET_EVENTS.orderMessage, base);
      // Sockets of the writer outside this room ignore it: the panel only takes its own order's messages.
      io.to(userRoom(m.senderUserId)).emit(ORDER_SOCKET_EVENTS.orderMessage, { ...base, mine: true });
    } else io.to(room).emit(ORDER_SOCKET_EVENTS.orderMessage, base);
  });
}
