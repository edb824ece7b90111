import { and, eq, inArray, or } from 'drizzle-orm';
import { ERASED_TEXT } from '../../../domain/deleted-account.ts';
import type { AppDeps } from '../../deps.ts';
import { orderMessages } from '../../db/schema/order-messages.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import { ORDER_SOCKET_EVENTS, type OrderMessageEvent } from '../../../contract/order-messages.ts';
import { emitWithMine, type ChatServer } from '../../plugins/socket.ts';
import { orderRoom } from '../chat/rooms.ts';
import { fileInMessage } from './messages.ts';
import { authorNameOfUser } from '../../lib/name-of-user.ts';

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
      .where(
        or(
          eq(orderMessages.senderUserId, e.userId),
          and(eq(orderMessages.sender, 'customer'), inArray(orderMessages.orderId, orderIdsOf(e.userId))),
        ),
      );
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
      authorName: await authorNameOfUser(deps.db, m.sender, m.senderUserId, deps.config.BRAND_NAME),
      mine: false,
    };
    emitWithMine(io, orderRoom(m.orderPublicId), ORDER_SOCKET_EVENTS.orderMessage, m.senderUserId, base);
  });
}
