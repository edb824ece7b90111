import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { coupons } from '../../db/schema/coupons.ts';

/**
 * A deleted person's referral code stops applying (decision 192). It is switched off, not deleted:
 * the orders and redemptions that used it, and the cashback it earned, are money records that stay.
 */
export function subscribeReferrals(deps: AppDeps) {
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx
      .update(coupons)
      .set({ active: false })
      .where(and(eq(coupons.ownerUserId, e.userId), eq(coupons.kind, 'referral')));
  });
}
