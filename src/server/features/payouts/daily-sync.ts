import type { AppDeps } from '../../deps.ts';
import { payoutSyncDays } from '../../db/schema/payouts.ts';
import { localDay } from './months.ts';
import { recentMonths, settlementApiOf, syncSettlements } from './sync-settlements.ts';

// The daily read of Razorpay's settlements (docs/decisions/323-razorpay-settlements.md). A step of
// the job pass (features/jobs/run-jobs.ts) stores, once per day across instances, a `payouts.sync`
// job: the day's row in payout_sync_days is inserted only by the first pass to try (its primary key
// decides), in the same transaction as the job. The job queue then claims the job with SKIP LOCKED,
// retries it with backoff when Razorpay fails, and keeps a last failure for the overview; the other
// steps of the pass never wait on it. The first pass after a start on a day not yet read stores it
// at once.

export const PAYOUTS_SYNC_JOB = 'payouts.sync';

/** Stores the day's read when none is stored yet; returns whether this call stored it. Nothing without Razorpay. */
export async function scheduleDailyPayoutSync(deps: AppDeps, now: Date): Promise<boolean> {
  if (!settlementApiOf(deps)) return false;
  const day = localDay(now, deps.config.INVOICE_TIME_ZONE);
  return deps.db.transaction(async (tx) => {
    const inserted = await tx.insert(payoutSyncDays).values({ day }).onConflictDoNothing().returning({ day: payoutSyncDays.day });
    if (!inserted.length) return false;
    await deps.jobs.enqueue(tx, PAYOUTS_SYNC_JOB, { day });
    return true;
  });
}

/** The job: this month's and last month's settlements, as of the job pass's clock. */
export async function runPayoutSyncJob(deps: AppDeps, now: Date) {
  const r = await syncSettlements(deps, recentMonths(deps, now), now);
  deps.log.info(r, 'payouts: Razorpay settlements read');
}
