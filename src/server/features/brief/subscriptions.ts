import { inArray } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { orderBriefs } from '../../db/schema/order-briefs-and-terms.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';

/**
 * A deleted person's briefs are emptied (decision 192): the answers describe them and their business
 * (names, contacts, wishes); the work they were for is delivered, and nobody can ask about them any more.
 */
export function subscribeBrief(deps: AppDeps) {
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx
      .update(orderBriefs)
      .set({ answers: {}, updatedAt: e.at })
      .where(inArray(orderBriefs.orderId, orderIdsOf(e.userId)));
  });
}
