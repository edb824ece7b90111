import { and, eq, isNotNull, lt, notInArray } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { maintenanceSubscribeClaims, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { claimStaleMs, recordCancelled } from './subscribe.ts';

// The other half of calling Razorpay outside any lock (docs/decisions/230-provider-calls-outside-locks.md):
// what a crash between the claim and the provider's answer left behind, run by the payments'
// reconcile job.

/**
 * Drops subscribe claims older than any provider answer (the subscription Razorpay may have
 * opened for it was never recorded, so never offered to Checkout: it stays unpaid there and
 * Razorpay expires it), and asks the provider again for each cancel whose answer was lost.
 */
export async function reconcileMaintenanceClaims(
  deps: AppDeps,
  now = new Date(),
): Promise<{ claimsDropped: number; cancelsRetried: number }> {
  const stale = new Date(now.getTime() - claimStaleMs(deps));
  const dropped = await deps.db.delete(maintenanceSubscribeClaims).where(lt(maintenanceSubscribeClaims.claimedAt, stale)).returning();
  const { provider } = moneyContext(deps);
  const pending = await deps.db
    .select({ id: maintenanceSubscriptions.id, providerSubscriptionId: maintenanceSubscriptions.providerSubscriptionId })
    .from(maintenanceSubscriptions)
    .where(
      and(
        isNotNull(maintenanceSubscriptions.cancelRequestedAt),
        lt(maintenanceSubscriptions.cancelRequestedAt, stale),
        eq(maintenanceSubscriptions.cancelAtPeriodEnd, false),
        eq(maintenanceSubscriptions.provider, provider.name),
        notInArray(maintenanceSubscriptions.state, ['cancelled', 'completed']),
      ),
    )
    .limit(100);
  let cancelsRetried = 0;
  for (const sub of pending) {
    try {
      await provider.subscriptions.cancelAtCycleEnd(sub.providerSubscriptionId);
      await recordCancelled(deps.db, sub.id);
      cancelsRetried++;
    } catch (err) {
      deps.log.warn(
        { subscription: sub.providerSubscriptionId, err: (err as Error).message },
        'maintenance cancel retry failed; will retry',
      );
    }
  }
  return { claimsDropped: dropped.length, cancelsRetried };
}
