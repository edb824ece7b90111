import type { AppDeps } from '../../deps.ts';
import { PAYOUTS_SYNC_JOB, runPayoutSyncJob } from './daily-sync.ts';

/** The payouts' stored job: the daily read of Razorpay's settlements (docs/decisions/323-razorpay-settlements.md). */
export function subscribePayouts(deps: AppDeps) {
  deps.jobs.handle(PAYOUTS_SYNC_JOB, async (_payload, now) => runPayoutSyncJob(deps, now));
}
