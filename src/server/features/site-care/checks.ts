import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { siteCheckResults, siteIncidents, watchedSites, type CheckCause } from '../../db/schema/site-care.ts';
import { ALERT_QUIET_MINUTES, daysLeft, nextState, warningDue, type WatchState } from '../../../domain/site-care.ts';
import { CERT_WARNING_DAYS, DOMAIN_WARNING_DAYS } from '../../../contract/site-care.ts';
import { certificateValidTo, checkUrl, domainExpiry, type CheckOutcome, type ProbeOptions } from './probe.ts';
import { mailCertificate, mailDomain, mailDown, mailUp, type SiteMailContext } from './site-mails.ts';
import { resolverOf } from './sites.ts';

// The checks (docs/decisions/325-site-checks-in-the-job-pass.md). A due site is claimed with
// SKIP LOCKED by an UPDATE that moves its next check one interval on, in one statement: another
// instance sees it as not due until then, so no check runs twice in an interval, and a crash
// loses at most that one check. The fetch runs outside any transaction; its result is recorded in
// a short one with the state change, the incident and the mails (the outbox).

/** Checks claimed per statement. */
const CLAIM_BATCH = 100;
/** Checks in flight per instance (the timer's loop); each is one socket for at most 10 s. */
export const CHECK_CONCURRENCY = 200;

export interface ClaimedSite {
  id: string;
  orderId: string;
  orderPublicId: string;
  url: string;
  expectText: string | null;
  scheduledAt: Date;
}

const probeOptions = (deps: AppDeps): ProbeOptions => ({
  allowPrivate: deps.config.SITE_CHECK_ALLOW_PRIVATE,
  resolve: resolverOf(deps),
  userAgent: `${deps.config.BRAND_NAME} site care (+${deps.config.publicUrl})`,
});

/** Claims up to `limit` checks due at `now`, moving each one interval on (aligned to its slot). */
export async function claimDueChecks(deps: AppDeps, now: Date, limit = CLAIM_BATCH): Promise<ClaimedSite[]> {
  const rows = await deps.database.query<{ id: string; order_id: string; public_id: string; url: string; expect_text: string | null; scheduled_at: Date | string }>(
    `with due as (
       select s.id, s.next_check_at as scheduled_at
         from watched_sites s join orders o on o.id = s.order_id
        where s.watching and s.next_check_at <= $1::timestamptz and coalesce(s.url, o.delivery_url) is not null
        order by s.next_check_at limit $3
          for update of s skip locked)
     update watched_sites s
        set next_check_at = due.scheduled_at + make_interval(secs => $2::int * (floor(extract(epoch from ($1::timestamptz - due.scheduled_at)) / $2::int) + 1))
       from due, orders o
      where s.id = due.id and o.id = s.order_id
     returning s.id, s.order_id, o.public_id, coalesce(s.url, o.delivery_url) as url, s.expect_text, due.scheduled_at`,
    [now.toISOString(), deps.config.SITE_CHECK_INTERVAL_SECONDS, limit],
    'site_care_claim_checks',
  );
  return rows.map((r) => ({ id: r.id, orderId: r.order_id, orderPublicId: r.public_id, url: r.url, expectText: r.expect_text, scheduledAt: new Date(r.scheduled_at) }));
}

async function mailContext(tx: Tx, site: { orderId: string; orderPublicId: string; url: string }): Promise<SiteMailContext> {
  const result = await tx.execute(sql`
    select u.email, coalesce(k.customer_mails, true) as customer_mails
      from orders o join users u on u.id = o.user_id left join site_care_orders k on k.order_id = o.id
     where o.id = ${site.orderId}`);
  const row = (result as unknown as { rows: { email: string; customer_mails: boolean }[] }).rows[0];
  return { ...site, customerEmail: row?.email ?? null, customerMails: row?.customer_mails ?? false };
}

/**
 * Records one check's outcome: the raw result, the day's counters, the state (down after 2
 * failures in a row, up after 1 success), the incident opened or closed, and the up/down mail —
 * at most one per ALERT_QUIET_MINUTES per site; a change inside the quiet time is mailed when it
 * ends, if the state is still not the one last mailed.
 */
export async function recordCheck(deps: AppDeps, site: ClaimedSite, outcome: CheckOutcome, checkedAt: Date) {
  await deps.events.transaction(async (tx) => {
    const [prev] = await tx
      .select({ state: watchedSites.state, failStreak: watchedSites.failStreak, alertState: watchedSites.alertState, alertMailedAt: watchedSites.alertMailedAt })
      .from(watchedSites)
      .where(eq(watchedSites.id, site.id))
      .for('update');
    if (!prev) return; // removed meanwhile
    await tx.insert(siteCheckResults).values({ siteId: site.id, scheduledAt: site.scheduledAt, checkedAt, ok: outcome.ok, status: outcome.status, ttfbMs: outcome.ttfbMs, totalMs: outcome.totalMs, cause: outcome.cause });
    await tx.execute(sql`
      insert into site_check_days (site_id, day, checks, failures)
      values (${site.id}, (${checkedAt.toISOString()}::timestamptz at time zone ${deps.config.INVOICE_TIME_ZONE})::date, 1, ${outcome.ok ? 0 : 1})
      on conflict (site_id, day) do update set checks = site_check_days.checks + 1, failures = site_check_days.failures + excluded.failures`);
    const change = nextState({ state: prev.state as WatchState, failStreak: prev.failStreak }, outcome.ok);
    if (change.opened) {
      // The incident starts at the first failure of the streak.
      const [first] = await tx
        .select({ at: siteCheckResults.checkedAt })
        .from(siteCheckResults)
        .where(eq(siteCheckResults.siteId, site.id))
        .orderBy(desc(siteCheckResults.checkedAt))
        .offset(change.failStreak - 1)
        .limit(1);
      await tx.insert(siteIncidents).values({ siteId: site.id, cause: outcome.cause ?? 'status', startedAt: first?.at ?? checkedAt }).onConflictDoNothing();
    }
    if (change.closed) await tx.update(siteIncidents).set({ endedAt: checkedAt }).where(and(eq(siteIncidents.siteId, site.id), isNull(siteIncidents.endedAt)));
    let alert: { alertState: 'up' | 'down'; alertMailedAt: Date } | undefined;
    const quiet = prev.alertMailedAt && checkedAt.getTime() - prev.alertMailedAt.getTime() < ALERT_QUIET_MINUTES * 60_000;
    if (change.state !== 'unknown' && change.state !== prev.alertState && !quiet) {
      const context = await mailContext(tx, site);
      const [incident] = await tx.select().from(siteIncidents).where(eq(siteIncidents.siteId, site.id)).orderBy(desc(siteIncidents.startedAt)).limit(1);
      if (change.state === 'down') await mailDown(deps, tx, context, { startedAt: incident?.startedAt ?? checkedAt, cause: (incident?.cause ?? outcome.cause ?? 'status') as CheckCause });
      else await mailUp(deps, tx, context, incident?.endedAt ? { startedAt: incident.startedAt, endedAt: incident.endedAt, cause: incident.cause as CheckCause } : null);
      alert = { alertState: change.state, alertMailedAt: checkedAt };
    }
    await tx
      .update(watchedSites)
      .set({ state: change.state, failStreak: change.failStreak, lastCheckedAt: checkedAt, lastStatus: outcome.status, lastError: outcome.error, ...alert })
      .where(eq(watchedSites.id, site.id));
  });
}

/** One claimed check: fetched, then recorded. Never throws (a failure to record is logged). */
export async function runCheck(deps: AppDeps, site: ClaimedSite, checkedAt = new Date()) {
  try {
    const outcome = await checkUrl(site.url, site.expectText, probeOptions(deps));
    await recordCheck(deps, site, outcome, checkedAt);
  } catch (err) {
    deps.log.error({ err, siteId: site.id }, 'site check');
  }
}

/** Every check due at `now`, claimed and awaited (the job pass; tests move the clock). */
export async function runDueChecks(deps: AppDeps, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await claimDueChecks(deps, now);
    await Promise.all(claimed.map((site) => runCheck(deps, site, now)));
    total += claimed.length;
    if (claimed.length < CLAIM_BATCH) return total;
  }
}

// ——— Once a day: the certificate and the domain ———

interface DailySite {
  id: string;
  orderId: string;
  orderPublicId: string;
  url: string;
  renewedBy: 'agency' | 'customer';
}

async function claimDaily(deps: AppDeps, now: Date): Promise<DailySite[]> {
  const rows = await deps.database.query<{ id: string; order_id: string; public_id: string; url: string; domain_renewed_by: 'agency' | 'customer' }>(
    `with due as (
       select s.id from watched_sites s join orders o on o.id = s.order_id
        where s.watching and s.next_daily_at <= $1::timestamptz and coalesce(s.url, o.delivery_url) is not null
        order by s.next_daily_at limit 50 for update of s skip locked)
     update watched_sites s set next_daily_at = $1::timestamptz + interval '1 day'
       from due, orders o where s.id = due.id and o.id = s.order_id
     returning s.id, s.order_id, o.public_id, coalesce(s.url, o.delivery_url) as url, s.domain_renewed_by`,
    [now.toISOString()],
  );
  return rows.map((r) => ({ id: r.id, orderId: r.order_id, orderPublicId: r.public_id, url: r.url, renewedBy: r.domain_renewed_by }));
}

/**
 * The daily look at one site: the certificate's end (warnings at 21, 14, 7 and 1 days) and the
 * domain's expiry (30, 14 and 7 days), each warning once per expiry date: a renewed certificate or
 * domain starts its warnings again. A probe that fails leaves the last known value.
 */
export async function runDaily(deps: AppDeps, site: DailySite, now: Date) {
  const opts = probeOptions(deps);
  const host = new URL(site.url).hostname;
  const [cert, domain] = await Promise.all([
    certificateValidTo(site.url, opts).catch((err: unknown) => {
      deps.log.warn({ err, siteId: site.id }, 'certificate probe');
      return undefined;
    }),
    domainExpiry(host, deps.config.RDAP_BASE_URL).catch((err: unknown) => {
      deps.log.warn({ err, siteId: site.id }, 'RDAP probe');
      return undefined;
    }),
  ]);
  await deps.events.transaction(async (tx) => {
    const [prev] = await tx.select().from(watchedSites).where(eq(watchedSites.id, site.id)).for('update');
    if (!prev) return;
    const set: Partial<typeof watchedSites.$inferInsert> = {};
    let context: SiteMailContext | undefined;
    const contextOf = async () => (context ??= await mailContext(tx, site));
    if (cert !== undefined) {
      const renewed = cert?.getTime() !== prev.certValidTo?.getTime();
      const warned = renewed ? null : prev.certWarnedDays;
      set.certValidTo = cert;
      set.certWarnedDays = warned;
      if (cert) {
        const left = daysLeft(cert, now);
        const due = warningDue(left, CERT_WARNING_DAYS, warned);
        if (due !== null) {
          await mailCertificate(deps, tx, await contextOf(), cert, left);
          set.certWarnedDays = due;
        }
      }
    }
    if (domain !== undefined) {
      const renewed = domain?.expiresAt.getTime() !== prev.domainExpiresAt?.getTime();
      const warned = renewed ? null : prev.domainWarnedDays;
      set.domainName = domain?.name ?? null;
      set.domainExpiresAt = domain?.expiresAt ?? null;
      set.domainWarnedDays = warned;
      if (domain) {
        const left = daysLeft(domain.expiresAt, now);
        const due = warningDue(left, DOMAIN_WARNING_DAYS, warned);
        if (due !== null) {
          // One domain, one warning per order: another URL of the order on the same domain may have sent it.
          const [sibling] = await tx.execute(sql`
            select 1 from watched_sites where order_id = ${site.orderId} and id <> ${site.id} and domain_name = ${domain.name}
               and domain_expires_at = ${domain.expiresAt.toISOString()}::timestamptz and domain_warned_days <= ${due} limit 1`).then((r) => (r as unknown as { rows: unknown[] }).rows);
          if (!sibling) await mailDomain(deps, tx, await contextOf(), { name: domain.name, expiresAt: domain.expiresAt, left, renewedBy: site.renewedBy });
          set.domainWarnedDays = due;
        }
      }
    }
    if (Object.keys(set).length) await tx.update(watchedSites).set(set).where(eq(watchedSites.id, site.id));
  });
}

export async function runDueDaily(deps: AppDeps, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await claimDaily(deps, now);
    await Promise.all(claimed.map((site) => runDaily(deps, site, now).catch((err: unknown) => deps.log.error({ err, siteId: site.id }, 'site daily check'))));
    total += claimed.length;
    if (claimed.length < 50) return total;
  }
}

/**
 * The instance's check loop, beside the job timer (features/jobs/run-jobs.ts): every second it
 * claims what is due, up to CHECK_CONCURRENCY checks in flight, and does not wait for a slow one
 * before starting the next — so a start is late by about a second, not by the slowest site.
 * Off under SITE_CHECKS=off, with JOBS_POLL_SECONDS=0 and in tests (they run the pass with their clock).
 */
export function startCheckLoop(deps: AppDeps, opts: { tickMs?: number } = {}) {
  let inFlight = 0;
  let ticking = false;
  let stopped = false;
  const tick = async () => {
    if (ticking || stopped) return;
    ticking = true;
    try {
      while (!stopped && inFlight < CHECK_CONCURRENCY) {
        const claimed = await claimDueChecks(deps, new Date(), Math.min(CLAIM_BATCH, CHECK_CONCURRENCY - inFlight));
        for (const site of claimed) {
          inFlight++;
          void runCheck(deps, site).finally(() => inFlight--);
        }
        if (claimed.length === 0) break;
      }
    } catch (err) {
      deps.log.error({ err }, 'site checks');
    } finally {
      ticking = false;
    }
  };
  const timer = setInterval(() => void tick(), opts.tickMs ?? 1000);
  timer.unref();
  return {
    inFlight: () => inFlight,
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (inFlight > 0 || ticking) await new Promise((r) => setTimeout(r, 50));
    },
  };
}

/** Starts the loop where the job timer runs (not in tests, not with SITE_CHECKS=off). */
export function startSiteChecks(app: FastifyInstance, deps: AppDeps) {
  if (!deps.config.siteChecks || deps.config.JOBS_POLL_SECONDS <= 0 || deps.config.NODE_ENV === 'test') return;
  const loop = startCheckLoop(deps);
  app.addHook('onClose', async () => loop.stop());
}
