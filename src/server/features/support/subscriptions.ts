import { and, eq, inArray, or } from 'drizzle-orm';
import { ERASED_TEXT } from '../../../domain/deleted-account.ts';
import type { AppDeps } from '../../deps.ts';
import { supportMessages, supportRequests } from '../../db/schema/support.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import type { MessageSide } from '../../db/schema/order-messages.ts';
import { addNotice } from '../notices/notices.ts';

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
  events.inTransaction('support.request', async (r, tx) => {
    if (r.from === null) {
      await addNotice(tx, { orderId: r.orderId, recipient: 'agency', kind: 'support_reply', refId: r.requestId, summary: `New support request (${r.category}): ${quoted(r.title)}`, at: r.at });
    } else if (r.state === 'resolved' && r.by === 'agency') {
      // Once per request: resolving it again later adds nothing (the notice is keyed by the request).
      await addNotice(tx, { orderId: r.orderId, recipient: 'customer', kind: 'support_reply', refId: r.requestId, summary: `Your support request ${quoted(r.title)} is resolved`, at: r.at });
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
          and(eq(supportMessages.sender, 'customer'), inArray(supportMessages.requestId, tx.select({ id: supportRequests.id }).from(supportRequests).where(inArray(supportRequests.orderId, orderIdsOf(e.userId))))),
        ),
      );
  });
}
