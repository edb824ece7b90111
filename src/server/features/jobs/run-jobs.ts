import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { runDueReminders } from '../reminders/run-reminders.ts';
import { cleanUpDrafts, followUpAbandonedCheckouts } from '../abandoned-checkouts/follow-up.ts';
import { sendDueNotices } from '../notices/send-notices.ts';
import { announceOverdueRequests, closeResolvedRequests, sendPlanOffers } from '../support/jobs.ts';
import { purgeRetainedRecords } from '../users/purge-retained.ts';
import { pruneIdempotencyKeys } from '../../plugins/idempotency.ts';
import { sweepStoredObjects } from '../order-files/sweep-objects.ts';
import { scheduleDailyPayoutSync } from '../payouts/daily-sync.ts';
import { runSiteCare } from '../site-care/site-care-pass.ts';
import { errorText } from '../../lib/pass-rows.ts';
import { sendDueWhatsApp } from '../whatsapp/send-whatsapp.ts';
import { whatsappNoticeAllowed } from '../whatsapp/notice-allowed.ts';

// The job runner (docs/decisions/339-isolated-job-passes.md). Each scheduled pass runs alone: its
// own error boundary (a pass that throws is logged and named in `errors`; the passes after it run
// on the same tick) and its own timing metric (job_pass_duration_seconds). Within a pass each
// claimed row is one transaction, and a row that throws is parked with attempts and a backoff, then
// `failed` (lib/pass-rows.ts): it never holds up the rows behind it.

type Passes = Record<string, (deps: AppDeps, now: Date) => Promise<unknown>>;

/** The passes in the order they run; names are the metric's `pass` label and the result's keys. */
export const PASSES = {
  // The day's read of Razorpay's payouts, stored once per day across instances as a job, so the
  // queue below runs it and retries it (docs/decisions/323-razorpay-settlements.md).
  payoutSync: (deps, now) =>
    scheduleDailyPayoutSync(deps, now).catch((err: unknown) => {
      deps.log.warn({ err }, 'payouts: the daily read could not be scheduled; the next pass tries again');
      return false;
    }),
  // Stored follow-up work first (jobs/job-queue.ts): what a change asked for runs before the schedules.
  stored: (deps, now) => deps.jobs.runDue(now),
  reminders: runDueReminders,
  followUps: followUpAbandonedCheckouts,
  draftsDeleted: cleanUpDrafts,
  // The batched order notices (decision 155).
  notices: sendDueNotices,
  // WhatsApp notices: one per order per 30 minutes, with consent (docs/decisions/345-whatsapp-notices-and-consent.md).
  whatsapp: (deps, now) => sendDueWhatsApp(deps, whatsappNoticeAllowed, now),
  // Resolved support requests close after 7 days; the plan offer 30 days before support ends (decision 170).
  supportClosed: closeResolvedRequests,
  // A request waiting past its first-response target is announced once per wait (pushes; decision 350).
  supportOverdue: announceOverdueRequests,
  planOffers: sendPlanOffers,
  // A deleted account's orders lose their texts once INVOICE_RETENTION_YEARS ran out (decision 192).
  retentionPurged: purgeRetainedRecords,
  // Idempotency-Key answers are kept 24 h (docs/decisions/210-idempotency-key.md).
  idempotencyPruned: (deps, now) => pruneIdempotencyKeys(deps.db, now),
  // Stored objects no row names, after a grace period (decision 231): after the purge, which may leave some.
  objectsSwept: sweepStoredObjects,
  // Site care: who is watched, the checks due, certificates and domains, roll-ups, the care reports (decision 325).
  siteCare: runSiteCare,
} satisfies Passes;

export type PassName = keyof typeof PASSES;
/** Each pass's answer (undefined when it threw), and what each pass that threw said. */
export type JobsResult = { [K in PassName]: Awaited<ReturnType<(typeof PASSES)[K]>> | undefined } & {
  errors: Partial<Record<PassName, string>>;
};

/** One pass of every scheduled job; `now` is the clock (tests move it). */
export async function runJobs(deps: AppDeps, now: Date = new Date()): Promise<JobsResult> {
  const results: Partial<Record<PassName, unknown>> & { errors: Partial<Record<PassName, string>> } = { errors: {} };
  for (const name of Object.keys(PASSES) as PassName[]) {
    const started = performance.now();
    try {
      results[name] = await PASSES[name](deps, now);
      deps.metrics?.observePass(name, 'ok', (performance.now() - started) / 1000);
    } catch (err) {
      deps.metrics?.observePass(name, 'error', (performance.now() - started) / 1000);
      deps.log.error({ err, pass: name }, `scheduled pass "${name}" failed; the other passes go on and the next tick tries it again`);
      results.errors[name] = errorText(err);
    }
  }
  return results as JobsResult;
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
