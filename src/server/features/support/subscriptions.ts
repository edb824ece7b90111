import { and, eq, inArray, or } from 'drizzle-orm';
import { authorNameOfUser } from '../../lib/name-of-user.ts';
import { ERASED_TEXT } from '../../../domain/deleted-account.ts';
import type { AppDeps } from '../../deps.ts';
import { supportMessages, supportRequests } from '../../db/schema/support.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import type { MessageSide } from '../../db/schema/order-messages.ts';
import { addNotice } from '../notices/notices.ts';
import { SUPPORT_SOCKET_EVENTS, type SupportMessageEvent, type SupportRequestEvent } from '../../../contract/support.ts';
import { emitWithMine, type ChatServer } from '../../plugins/socket.ts';
import { orderRoom } from '../chat/rooms.ts';
import { fileInSupport } from './files-in-use.ts';

// Support through the one notice mechanism (decision 155): a new request and every
// message become a `support_reply` notice for the other side, mailed in the order's batch by the
// notice job; resolving a request tells the customer. Each reaction runs in the publisher's
// transaction, so a notice exists exactly when its request or message does. The summary names the
// request by its title (the customer's own words, going only to the order's people), never a text.

/** A deleted person's request keeps a title the queue can show. */
const ERASED_TITLE = 'Support request (customer deleted their account)';

const other = (side: MessageSide): MessageSide => (side === 'customer' ? 'agency' : 'customer');
const quoted = (title: string) => `"${title.length > 80 ? `${title.slice(0, 79)}…` : title}"`;

export function subscribeSupport(deps: AppDeps) {
  const { events } = deps;
  // A file attached to a support message cannot be deleted (decision 170).
  deps.queries.fileInUse.push(fileInSupport);
  events.inTransaction('support.request', async (r, tx) => {
    if (r.from === null) {
      await addNotice(tx, {
        orderId: r.orderId,
        recipient: 'agency',
        kind: 'support_reply',
        refId: r.requestId,
        summary: `New support request (${r.category}): ${quoted(r.title)}`,
        at: r.at,
      });
    } else if (r.state === 'resolved' && r.by === 'agency') {
      // Once per request: resolving it again later adds nothing (the notice is keyed by the request).
      await addNotice(tx, {
        orderId: r.orderId,
        recipient: 'customer',
        kind: 'support_reply',
        refId: r.requestId,
        summary: `Your support request ${quoted(r.title)} is resolved`,
        at: r.at,
      });
    }
  });
  events.inTransaction('support.message', async (m, tx) => {
    const who = m.sender === 'customer' ? 'the customer' : 'the team';
    await addNotice(tx, {
      orderId: m.orderId,
      recipient: other(m.sender),
      kind: 'support_reply',
      refId: m.messageId,
      summary: `A new message from ${who} on the support request ${quoted(m.title)}`,
      at: m.at,
    });
  });
  // A deleted person's requests and messages (decision 192): what they wrote becomes a neutral
  // marker; the requests stay, so the agency's answers and the order's support history keep their place.
  events.inTransaction('account.deleted', async (e, tx) => {
    const theirs = or(eq(supportRequests.createdBy, e.userId), inArray(supportRequests.orderId, orderIdsOf(e.userId)));
    await tx.update(supportRequests).set({ title: ERASED_TITLE, description: ERASED_TEXT }).where(theirs);
    await tx
      .update(supportMessages)
      .set({ text: ERASED_TEXT })
      .where(
        or(
          eq(supportMessages.senderUserId, e.userId),
          and(
            eq(supportMessages.sender, 'customer'),
            inArray(
              supportMessages.requestId,
              tx
                .select({ id: supportRequests.id })
                .from(supportRequests)
                .where(inArray(supportRequests.orderId, orderIdsOf(e.userId))),
            ),
          ),
        ),
      );
  });
}

// Live support: messages and state changes go to the order's room, the one a customer's order page
// and the founder's pages join with `joinOrder` (order-messages), under their own event names.
// After commit, so nobody hears of what is not stored; lossy by nature (GET …/messages reads the
// same thread without a socket); the adapter carries them to sockets on every instance.
export function broadcastSupport(io: ChatServer, deps: AppDeps) {
  deps.events.afterCommit('support.message', async (m) => {
    const event: SupportMessageEvent = {
      orderId: m.orderPublicId,
      requestId: m.requestId,
      id: m.messageId,
      sender: m.sender,
      text: m.text,
      fileIds: m.fileIds,
      createdAt: m.at.toISOString(),
      authorName: await authorNameOfUser(deps.db, m.sender, m.senderUserId, deps.config.BRAND_NAME),
      mine: false,
    };
    emitWithMine(io, orderRoom(m.orderPublicId), SUPPORT_SOCKET_EVENTS.supportMessage, m.senderUserId, event);
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
