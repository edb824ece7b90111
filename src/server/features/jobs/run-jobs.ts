import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { runDueReminders } from '../reminders/run-reminders.ts';
import { cleanUpDrafts, followUpAbandonedCheckouts } from '../abandoned-checkouts/follow-up.ts';
import { sendDueNotices } from '../notices/send-notices.ts';
import { closeResolvedRequests, sendPlanOffers } from '../support/jobs.ts';
import { purgeRetainedRecords } from '../users/purge-retained.ts';
import { pruneIdempotencyKeys } from '../../plugins/idempotency.ts';
import { sweepStoredObjects } from '../order-files/sweep-objects.ts';
import { scheduleDailyPayoutSync } from '../payouts/daily-sync.ts';
import { runSiteCare } from '../site-care/site-care-pass.ts';
import { sendDueWhatsApp } from '../whatsapp/send-whatsapp.ts';
import { whatsappNoticeAllowed } from '../whatsapp/notice-allowed.ts';

/** One pass of every scheduled job; `now` is the clock (tests move it). */
export async function runJobs(deps: AppDeps, now: Date = new Date()) {
  // The day's read of Razorpay's payouts, stored once per day across instances as a job, so the
  // queue below runs it, retries it and never lets it stop the rest (docs/decisions/323-razorpay-settlements.md).
  const payoutSync = await scheduleDailyPayoutSync(deps, now).catch((err: unknown) => {
    deps.log.warn({ err }, 'payouts: the daily read could not be scheduled; the next pass tries again');
    return false;
  });
  // Stored follow-up work first (jobs/job-queue.ts): what a change asked for runs before the schedules.
  const stored = await deps.jobs.runDue(now);
  const reminders = await runDueReminders(deps, now);
  const followUps = await followUpAbandonedCheckouts(deps, now);
  const draftsDeleted = await cleanUpDrafts(deps, now);
  // The batched order notices (decision 155).
  const notices = await sendDueNotices(deps, now);
  // WhatsApp notices: one per order per 30 minutes, with consent (docs/decisions/345-whatsapp-notices-and-consent.md).
  const whatsapp = await sendDueWhatsApp(deps, whatsappNoticeAllowed, now);
  // Resolved support requests close after 7 days; the plan offer 30 days before support ends (decision 170).
  const supportClosed = await closeResolvedRequests(deps, now);
  const planOffers = await sendPlanOffers(deps, now);
  // A deleted account's orders lose their texts once INVOICE_RETENTION_YEARS ran out (decision 192).
  const retentionPurged = await purgeRetainedRecords(deps, now);
  // Idempotency-Key answers are kept 24 h (docs/decisions/210-idempotency-key.md).
  await pruneIdempotencyKeys(deps.db, now);
  // Stored objects no row names, after a grace period (decision 231): after the purge, which may leave some.
  const objectsSwept = await sweepStoredObjects(deps, now);
  // Site care: who is watched, the checks due, certificates and domains, roll-ups, the care reports (decision 325).
  const siteCare = await runSiteCare(deps, now);
  return { payoutSync, stored, reminders, followUps, draftsDeleted, notices, whatsapp, supportClosed, planOffers, retentionPurged, objectsSwept, siteCare };
}

/**
 * Every instance polls every JOBS_POLL_SECONDS; rows are claimed with SKIP LOCKED, so instances
 * share the work and never do one job twice. Tests call runJobs with their own clock instead.
 */
export function startJobTimer(app: FastifyInstance, deps: AppDeps) {
  const every = deps.config.JOBS_POLL_SECONDS;
  if (every <= 0 || deps.config.NODE_ENV === 'test') return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runJobs(deps)
      .catch((err) => deps.log.error({ err }, 'scheduled jobs'))
      .finally(() => {
        running = false;
      });
  }, every * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
