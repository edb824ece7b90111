import type { AppDeps } from '../../deps.ts';
import { dayOf, zonedTime } from '../../../domain/site-care.ts';
import { runDueChecks, runDueDaily } from './checks.ts';
import { writeDueReports } from './care-reports.ts';
import { refreshWatching } from './sites.ts';

// Site care's part of the job pass (features/jobs/run-jobs.ts; docs/decisions/325-site-checks-in-the-job-pass.md):
// who is watched, the checks due (the timer's loop starts most of them between passes), the daily
// certificate and domain look, the finished days' percentiles with the 90-day pruning, and the
// monthly care reports. Nothing runs under SITE_CHECKS=off, and with nothing watched each part is
// one indexed query that finds nothing.

const ROLLED_MARK = 'site_days_rolled_through';
const RAW_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * Once per finished day (for all instances): the day's p50/p95 of successful checks into
 * site_check_days, and raw results older than 90 days deleted. Days are INVOICE_TIME_ZONE days.
 */
export async function rollUpDays(deps: AppDeps, now: Date): Promise<boolean> {
  const tz = deps.config.INVOICE_TIME_ZONE;
  const today = dayOf(now, tz);
  const [mark] = await deps.database.query<{ value: string }>(`select value from site_care_marks where name = $1`, [ROLLED_MARK]);
  const yesterday = dayOf(new Date(now.getTime() - DAY_MS), tz);
  if (mark && mark.value >= yesterday) return false;
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const todayStart = zonedTime(y, m, d, 0, tz);
  const from = mark
    ? zonedTime(...(mark.value.split('-').map(Number) as [number, number, number]), 24, tz)
    : new Date(todayStart.getTime() - RAW_RETENTION_DAYS * DAY_MS);
  await deps.database.query(
    `update site_check_days d set p50_ms = x.p50, p95_ms = x.p95
       from (select site_id, (checked_at at time zone $3)::date as day,
                    percentile_disc(0.5) within group (order by total_ms) as p50,
                    percentile_disc(0.95) within group (order by total_ms) as p95
               from site_check_results where ok and checked_at >= $1::timestamptz and checked_at < $2::timestamptz
              group by 1, 2) x
      where d.site_id = x.site_id and d.day = x.day and d.p50_ms is null`,
    [from.toISOString(), todayStart.toISOString(), tz],
  );
  await deps.database.query(`delete from site_check_results where checked_at < $1::timestamptz`, [
    new Date(now.getTime() - RAW_RETENTION_DAYS * DAY_MS).toISOString(),
  ]);
  await deps.database.query(
    `insert into site_care_marks (name, value, updated_at) values ($1, $2, now())
     on conflict (name) do update set value = greatest(site_care_marks.value, excluded.value), updated_at = now()`,
    [ROLLED_MARK, yesterday],
  );
  return true;
}

/** One pass of site care at `now` (tests move the clock). */
export async function runSiteCare(deps: AppDeps, now: Date) {
  if (!deps.config.siteChecks) return null;
  const watchingChanged = await refreshWatching(deps, now);
  const checks = await runDueChecks(deps, now);
  const daily = await runDueDaily(deps, now);
  const rolledUp = await rollUpDays(deps, now);
  const reports = await writeDueReports(deps, now);
  return { watchingChanged, checks, daily, rolledUp, reports };
}
