import type { AppDeps } from '../../deps.ts';
import type { MessageSide } from '../../db/schema/order-messages.ts';
import { addNotice } from '../notices/notices.ts';

// Support through the one notice mechanism (DESIGN §11, decision 155): a new request and every
// message become a `support_reply` notice for the other side, mailed in the order's batch by the
// notice job; resolving a request tells the customer. Each reaction runs in the publisher's
// transaction, so a notice exists exactly when its request or message does. The summary names the
// request by its title (the customer's own words, going only to the order's people), never a text.

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
}
