import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { siteCheckResults, siteIncidents, watchedSites, type CheckCause } from '../../db/schema/site-care.ts';
import { ALERT_QUIET_MINUTES, dayOf, daysLeft, nextState, warningDue, type WatchState } from '../../../domain/site-care.ts';
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
  const rows = await deps.database.query<{
    id: string;
    order_id: string;
    public_id: string;
    url: string;
    expect_text: string | null;
    scheduled_at: Date | string;
  }>(
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
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    orderPublicId: r.public_id,
    url: r.url,
    expectText: r.expect_text,
    scheduledAt: new Date(r.scheduled_at),
  }));
}

async function mailContext(tx: Tx, site: { orderId: string; orderPublicId: string; url: string }): Promise<SiteMailContext> {
  const result = await tx.execute(sql`
    select u.email, coalesce(k.customer_mails, true) as customer_mails
      from orders o join users u on u.id = o.user_id left join site_care_orders k on k.order_id = o.id
     where o.id = ${site.orderId}`);
  const row = (result as unknown as { rows: { email: string; customer_mails: boolean }[] }).rows[0];
  return { ...site, customerEmail: row?.email ?? null, customerMails: row?.customer_mails ?? false };
}

export interface CheckResult {
  site: ClaimedSite;
  outcome: CheckOutcome;
  checkedAt: Date;
}

/**
 * Records checks' outcomes, many in one short transaction (the loop gathers what finished in the
 * last moment): the raw results, the days' counters, each site's state (down after 2 failures in a
 * row, up after 1 success), the incident opened or closed, and the up/down mail — at most one per
 * ALERT_QUIET_MINUTES per site; a change inside the quiet time is mailed when it ends, if the state
 * is still not the one last mailed. A handful of statements per batch, not per check: on PGlite the
 * database runs on the event loop, and per-check transactions starved the checks themselves.
 */
export async function recordChecks(deps: AppDeps, results: CheckResult[]) {
  if (results.length === 0) return;
  const tz = deps.config.INVOICE_TIME_ZONE;
  await deps.events.transaction(async (tx) => {
    const ids = [...new Set(results.map((r) => r.site.id))].sort();
    const rows = await tx
      .select({
        id: watchedSites.id,
        state: watchedSites.state,
        failStreak: watchedSites.failStreak,
        alertState: watchedSites.alertState,
        alertMailedAt: watchedSites.alertMailedAt,
      })
      .from(watchedSites)
      .where(inArray(watchedSites.id, ids))
      .orderBy(watchedSites.id)
      .for('update');
    const now = new Map(
      rows.map((r) => [
        r.id,
        { ...r, state: r.state as WatchState, lastCheckedAt: null as Date | null, lastStatus: 0, lastError: null as string | null },
      ]),
    );
    const live = results.filter((r) => now.has(r.site.id)); // a site removed meanwhile is forgotten
    if (live.length === 0) return;
    await tx.insert(siteCheckResults).values(
      live.map((r) => ({
        siteId: r.site.id,
        scheduledAt: r.site.scheduledAt,
        checkedAt: r.checkedAt,
        ok: r.outcome.ok,
        status: r.outcome.status,
        ttfbMs: r.outcome.ttfbMs,
        totalMs: r.outcome.totalMs,
        cause: r.outcome.cause,
      })),
    );
    const days = new Map<string, { siteId: string; at: Date; checks: number; failures: number }>();
    for (const r of live) {
      const key = `${r.site.id} ${dayOf(r.checkedAt, tz)}`;
      const d = days.get(key) ?? { siteId: r.site.id, at: r.checkedAt, checks: 0, failures: 0 };
      d.checks++;
      if (!r.outcome.ok) d.failures++;
      days.set(key, d);
    }
    await tx.execute(sql`
      insert into site_check_days (site_id, day, checks, failures)
      select v.site_id::uuid, (v.at::timestamptz at time zone ${tz})::date, v.checks::int, v.failures::int
        from (values ${sql.join(
          [...days.values()].map((d) => sql`(${d.siteId}, ${d.at.toISOString()}, ${d.checks}, ${d.failures})`),
          sql`, `,
        )}) as v(site_id, at, checks, failures)
      on conflict (site_id, day) do update set checks = site_check_days.checks + excluded.checks, failures = site_check_days.failures + excluded.failures`);
    const changed = new Set<string>();
    for (const r of live) {
      const prev = now.get(r.site.id)!;
      const change = nextState(prev, r.outcome.ok);
      if (change.opened) {
        // The incident starts at the first failure of the streak.
        const [first] = await tx
          .select({ at: siteCheckResults.checkedAt })
          .from(siteCheckResults)
          .where(eq(siteCheckResults.siteId, r.site.id))
          .orderBy(desc(siteCheckResults.checkedAt))
          .offset(change.failStreak - 1)
          .limit(1);
        await tx
          .insert(siteIncidents)
          .values({ siteId: r.site.id, cause: r.outcome.cause ?? 'status', startedAt: first?.at ?? r.checkedAt })
          .onConflictDoNothing();
      }
      if (change.closed)
        await tx
          .update(siteIncidents)
          .set({ endedAt: r.checkedAt })
          .where(and(eq(siteIncidents.siteId, r.site.id), isNull(siteIncidents.endedAt)));
      const quiet = prev.alertMailedAt && r.checkedAt.getTime() - prev.alertMailedAt.getTime() < ALERT_QUIET_MINUTES * 60_000;
      if (change.state !== 'unknown' && change.state !== prev.alertState && !quiet) {
        const context = await mailContext(tx, r.site);
        const [incident] = await tx
          .select()
          .from(siteIncidents)
          .where(eq(siteIncidents.siteId, r.site.id))
          .orderBy(desc(siteIncidents.startedAt))
          .limit(1);
        if (change.state === 'down') {
          await mailDown(deps, tx, context, {
            startedAt: incident?.startedAt ?? r.checkedAt,
            cause: (incident?.cause ?? r.outcome.cause ?? 'status') as CheckCause,
          });
          await deps.events.publish(tx, 'site.down', {
            orderId: context.orderId,
            orderPublicId: context.orderPublicId,
            url: context.url,
            customerNotices: context.customerMails,
            at: r.checkedAt,
          });
        } else
          await mailUp(
            deps,
            tx,
            context,
            incident?.endedAt ? { startedAt: incident.startedAt, endedAt: incident.endedAt, cause: incident.cause as CheckCause } : null,
          );
        prev.alertState = change.state;
        prev.alertMailedAt = r.checkedAt;
      }
      Object.assign(prev, {
        state: change.state,
        failStreak: change.failStreak,
        lastCheckedAt: r.checkedAt,
        lastStatus: r.outcome.status,
        lastError: r.outcome.error,
      });
      changed.add(r.site.id);
    }
    const updates = [...changed].map((id) => now.get(id)!);
    await tx.execute(sql`
      update watched_sites s
         set state = v.state, fail_streak = v.fail_streak::int, last_checked_at = v.checked_at::timestamptz, last_status = v.status::int,
             last_error = v.error, alert_state = v.alert_state, alert_mailed_at = v.alert_at::timestamptz
        from (values ${sql.join(
          updates.map(
            (u) =>
              sql`(${u.id}, ${u.state}, ${u.failStreak}, ${u.lastCheckedAt!.toISOString()}, ${u.lastStatus}, ${u.lastError},
                ${u.alertState}, ${u.alertMailedAt?.toISOString() ?? null})`,
          ),
          sql`, `,
        )}) as v(id, state, fail_streak, checked_at, status, error, alert_state, alert_at)
       where s.id = v.id::uuid`);
  });
}

/** One claimed check's fetch (never throws: a probe's failure is an outcome). */
export async function probeSite(deps: AppDeps, site: ClaimedSite, checkedAt = new Date()): Promise<CheckResult> {
  return { site, outcome: await checkUrl(site.url, site.expectText, probeOptions(deps)), checkedAt };
}

/** Every check due at `now`, claimed, fetched and recorded (the job pass; tests move the clock). */
export async function runDueChecks(deps: AppDeps, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await claimDueChecks(deps, now);
    await recordChecks(deps, await Promise.all(claimed.map((site) => probeSite(deps, site, now))));
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
  const rows = await deps.database.query<{
    id: string;
    order_id: string;
    public_id: string;
    url: string;
    domain_renewed_by: 'agency' | 'customer';
  }>(
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
          const [sibling] = await tx
            .execute(
              sql`
            select 1 from watched_sites where order_id = ${site.orderId} and id <> ${site.id} and domain_name = ${domain.name}
               and domain_expires_at = ${domain.expiresAt.toISOString()}::timestamptz and domain_warned_days <= ${due} limit 1`,
            )
            .then((r) => (r as unknown as { rows: unknown[] }).rows);
          if (!sibling)
            await mailDomain(deps, tx, await contextOf(), {
              name: domain.name,
              expiresAt: domain.expiresAt,
              left,
              renewedBy: site.renewedBy,
            });
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
    await Promise.all(
      claimed.map((site) =>
        runDaily(deps, site, now).catch((err: unknown) => deps.log.error({ err, siteId: site.id }, 'site daily check')),
      ),
    );
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
export function startCheckLoop(deps: AppDeps, opts: { tickMs?: number; flushMs?: number } = {}) {
  let inFlight = 0;
  let ticking = false;
  let stopped = false;
  // Finished checks wait here a moment and are recorded together, one batch at a time.
  const pending: CheckResult[] = [];
  let flushing: Promise<void> | null = null;
  const flush = () => {
    if (flushing || pending.length === 0) return;
    const batch = pending.splice(0, CLAIM_BATCH * 2);
    flushing = recordChecks(deps, batch)
      .catch((err: unknown) => deps.log.error({ err, checks: batch.length }, 'recording site checks'))
      .finally(() => {
        flushing = null;
        if (pending.length >= CLAIM_BATCH) flush();
      });
  };
  const tick = async () => {
    if (ticking || stopped) return;
    ticking = true;
    try {
      while (!stopped && inFlight < CHECK_CONCURRENCY) {
        const claimed = await claimDueChecks(deps, new Date(), Math.min(CLAIM_BATCH, CHECK_CONCURRENCY - inFlight));
        for (const site of claimed) {
          inFlight++;
          void probeSite(deps, site)
            .then((result) => {
              pending.push(result);
              if (pending.length >= CLAIM_BATCH) flush();
            })
            .finally(() => inFlight--);
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
  const flusher = setInterval(flush, opts.flushMs ?? 250);
  timer.unref();
  flusher.unref();
  return {
    inFlight: () => inFlight,
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (inFlight > 0 || ticking) await new Promise((r) => setTimeout(r, 50));
      clearInterval(flusher);
      while (flushing || pending.length) {
        flush();
        await flushing;
      }
    },
  };
}

/** Starts the loop where the job timer runs (not in tests, not with SITE_CHECKS=off). */
export function startSiteChecks(app: FastifyInstance, deps: AppDeps) {
  if (!deps.config.siteChecks || deps.config.JOBS_POLL_SECONDS <= 0 || deps.config.NODE_ENV === 'test') return;
  const loop = startCheckLoop(deps);
  app.addHook('onClose', async () => loop.stop());
}

/**
 * One check (and the daily look) of each watched site of one order at `at`, whether due or not —
 * for the e2e stack's control port (tests/e2e/stack.ts), where nothing runs by itself.
 */
export async function checkOrderSites(deps: AppDeps, orderPublicId: string, at: Date): Promise<number> {
  const rows = await deps.database.query<{
    id: string;
    order_id: string;
    public_id: string;
    url: string;
    expect_text: string | null;
    domain_renewed_by: 'agency' | 'customer';
  }>(
    `select s.id, s.order_id, o.public_id, coalesce(s.url, o.delivery_url) as url, s.expect_text, s.domain_renewed_by
       from watched_sites s join orders o on o.id = s.order_id
      where o.public_id = $1 and s.watching and coalesce(s.url, o.delivery_url) is not null`,
    [orderPublicId],
  );
  for (const r of rows) {
    const site = { id: r.id, orderId: r.order_id, orderPublicId: r.public_id, url: r.url, expectText: r.expect_text, scheduledAt: at };
    await recordChecks(deps, [await probeSite(deps, site, at)]);
    await runDaily(deps, { ...site, renewedBy: r.domain_renewed_by }, at);
  }
  return rows.length;
}
