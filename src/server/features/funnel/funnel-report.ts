import {
  DIRECT_SOURCE,
  FUNNEL_STAGES,
  funnelCountsOf,
  type FunnelCounts,
  type FunnelResponse,
  type FunnelStage,
} from '../../../contract/funnel.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import type { Database } from '../../db/client.ts';
import { toCsv } from '../../lib/csv.ts';

const DAY_MS = 86_400_000;
const WEEK = (col: string) => `to_char(date_trunc('week', ${col}), 'YYYY-MM-DD')`;
/** The first-touch source of a row with the 0744 columns: utm_source, else the referring host. */
const SOURCE = (t: string) => `coalesce(lower(${t}.first_utm_source), lower(${t}.first_referrer_host), '${DIRECT_SOURCE}')`;

/** The Mondays (UTC) of the last `n` weeks, the current one last. */
export function lastWeeks(now: Date, n: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  return Array.from({ length: n }, (_, i) => new Date(monday - (n - 1 - i) * 7 * DAY_MS).toISOString().slice(0, 10));
}

const zero = (): FunnelCounts => funnelCountsOf();

interface Row {
  week: string;
  source: string;
  n: number;
}

/**
 * The funnel per week and source: visitors → leads and contact messages → sign-ups → advance
 * paid → delivered. Each number counts the events of that week (not a cohort), each attributed to
 * its own first touch. All counts come from the database in six grouped queries.
 */
export async function funnelReport(database: Database, weeksBack: number, now = new Date()): Promise<FunnelResponse> {
  const weeks = lastWeeks(now, weeksBack);
  const from = weeks[0]!;
  const since = `($1::date)::timestamp at time zone 'UTC'`;
  const queries: Record<FunnelStage, string> = {
    // A visitor-day takes the source of its first page view that had one (a later direct load of
    // the same visitor does not make them "direct").
    visitors: `with vd as (
        select day, (array_agg(lower(coalesce(utm_source, referrer_host)) order by id)
                     filter (where coalesce(utm_source, referrer_host) is not null))[1] as source
          from page_views where day >= $1::date group by day, visitor)
      select ${WEEK('day::timestamp')} as week, coalesce(source, '${DIRECT_SOURCE}') as source, count(*)::int as n from vd group by 1, 2`,
    leads: `select ${WEEK(`l.created_at at time zone 'UTC'`)} as week, ${SOURCE('l')} as source, count(*)::int as n
              from leads l where l.created_at >= ${since} group by 1, 2`,
    contacts: `select ${WEEK(`c.created_at at time zone 'UTC'`)} as week, ${SOURCE('c')} as source, count(*)::int as n
                 from contact_messages c where c.created_at >= ${since} group by 1, 2`,
    signups: `select ${WEEK(`u.created_at at time zone 'UTC'`)} as week, ${SOURCE('u')} as source, count(*)::int as n
                from users u where u.role = 'customer' and u.created_at >= ${since} group by 1, 2`,
    advancePaid: `select ${WEEK(`i.paid_at at time zone 'UTC'`)} as week, ${SOURCE('o')} as source, count(*)::int as n
                    from installments i join orders o on o.id = i.order_id
                   where i.kind = 'advance' and i.state = 'paid' and i.paid_at >= ${since} group by 1, 2`,
    delivered: `select ${WEEK(`s.completed_at at time zone 'UTC'`)} as week, ${SOURCE('o')} as source, count(*)::int as n
                  from order_stages s join orders o on o.id = s.order_id
                 where s.stage = ${DELIVERY_STAGE} and s.completed_at >= ${since} group by 1, 2`,
  };
  const results = await Promise.all(FUNNEL_STAGES.map((stage) => database.query<Row>(queries[stage], [from])));

  const index = new Map(weeks.map((w, i) => [w, i]));
  const total = weeks.map(zero);
  const bySource = new Map<string, FunnelCounts[]>();
  FUNNEL_STAGES.forEach((stage, k) => {
    for (const r of results[k]!) {
      const i = index.get(r.week);
      if (i === undefined) continue;
      const n = Number(r.n);
      total[i]![stage] += n;
      let perWeek = bySource.get(r.source);
      if (!perWeek) bySource.set(r.source, (perWeek = weeks.map(zero)));
      perWeek[i]![stage] += n;
    }
  });
  const sum = (rows: FunnelCounts[]) => rows.reduce((acc, r) => (FUNNEL_STAGES.forEach((s) => (acc[s] += r[s])), acc), zero());
  const weight = (c: FunnelCounts) => [c.delivered, c.advancePaid, c.signups, c.leads + c.contacts, c.visitors];
  const sources = [...bySource.entries()]
    .map(([source, perWeek]) => ({ source, perWeek, total: sum(perWeek) }))
    .sort((a, b) => {
      const wa = weight(a.total);
      const wb = weight(b.total);
      for (let i = 0; i < wa.length; i++) if (wa[i] !== wb[i]) return wb[i]! - wa[i]!;
      return a.source.localeCompare(b.source);
    });
  return {
    success: true,
    generatedAt: now.toISOString(),
    weeks,
    total,
    sources,
  };
}

export const ALL_SOURCES = '(all sources)';

/** One row per week and source (plus an all-sources row per week); spreadsheet formulas defused. */
export function funnelCsv(report: FunnelResponse): string {
  const header = ['week_start', 'source', 'visitors', 'leads', 'contact_messages', 'signups', 'advance_paid', 'delivered'];
  const rows: unknown[][] = [];
  report.weeks.forEach((week, i) => {
    const line = (source: string, c: FunnelCounts) => [week, source, ...FUNNEL_STAGES.map((s) => c[s])];
    rows.push(line(ALL_SOURCES, report.total[i]!));
    for (const s of report.sources) {
      const c = s.perWeek[i]!;
      if (FUNNEL_STAGES.some((k) => c[k] > 0)) rows.push(line(s.source, c));
    }
  });
  return toCsv(header, rows);
}
