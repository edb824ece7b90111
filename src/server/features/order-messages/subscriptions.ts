import { and, eq, inArray, or } from 'drizzle-orm';
import { ERASED_TEXT } from '../../../domain/deleted-account.ts';
import type { AppDeps } from '../../deps.ts';
import { orderMessages } from '../../db/schema/order-messages.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';

/**
 * What a deleted person wrote on their orders' threads (decision 192) is replaced by a neutral
 * marker: the rows stay, so the agency's answers keep their place in the thread and the files
 * attached to them (project material, kept) still have their message.
 */
export function subscribeOrderMessages(deps: AppDeps) {
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx
      .update(orderMessages)
      .set({ text: ERASED_TEXT })
      .where(or(eq(orderMessages.senderUserId, e.userId), and(eq(orderMessages.sender, 'customer'), inArray(orderMessages.orderId, orderIdsOf(e.userId)))));
  });
}
