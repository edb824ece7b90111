import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { orders } from '../../db/schema/orders.ts';

/**
 * A deleted person's first touch (where they first came from) leaves their orders too (decision 192;
 * the account's own columns are cleared with it): the funnel then counts those orders as "direct".
 */
export function subscribeFunnel(deps: AppDeps) {
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx
      .update(orders)
      .set({ firstUtmSource: null, firstUtmMedium: null, firstUtmCampaign: null, firstReferrerHost: null })
      .where(eq(orders.userId, e.userId));
  });
}
