import type { AppDeps } from '../../deps.ts';
import { dayOf, daysLeft, uptimePercent } from '../../../domain/site-care.ts';
import {
  CERT_WARNING_DAYS,
  DOMAIN_WARNING_DAYS,
  type AdminSite,
  type SiteHealth,
  type IncidentCause,
} from '../../../contract/site-care.ts';

// What the Support tab and /admin/sites show of the watched sites (contract: site-care.ts):
// the state, the last 30 days' uptime from the daily counters, the median time of the last 24 hours,
// the certificate's and the domain's days left, the last incidents and the 90-day strip.

const DAY_MS = 86_400_000;
const INCIDENTS_SHOWN = 5;

interface SiteRow {
  id: string;
  order_id: string;
  public_id: string;
  customer_name: string | null;
  url: string | null;
  is_delivery_link: boolean;
  expect_text: string | null;
  watching: boolean;
  stopped_note: string | null;
  state: 'unknown' | 'up' | 'down';
  last_checked_at: Date | string | null;
  cert_valid_to: Date | string | null;
  domain_expires_at: Date | string | null;
  domain_renewed_by: 'agency' | 'customer';
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * The health of one order's sites (`orderId`), or of every site (null; without the 90-day strip,
 * which only the order's page draws). `now` is the clock.
 */
export async function readHealth(
  deps: AppDeps,
  orderId: string | null,
  now: Date,
): Promise<(SiteHealth & { orderId: string; customerName: string | null })[]> {
  const q = deps.database.query.bind(deps.database);
  const tz = deps.config.INVOICE_TIME_ZONE;
  const day30 = dayOf(new Date(now.getTime() - 29 * DAY_MS), tz);
  const day90 = dayOf(new Date(now.getTime() - 89 * DAY_MS), tz);
  const scope = `($1::uuid is null or s.order_id = $1::uuid)`;
  const sites = await q<SiteRow>(
    `select s.id, s.order_id, o.public_id, u.name as customer_name, coalesce(s.url, o.delivery_url) as url, s.is_delivery_link, s.expect_text,
            s.watching, s.stopped_note, s.state, s.last_checked_at, s.cert_valid_to, s.domain_expires_at, s.domain_renewed_by
       from watched_sites s join orders o on o.id = s.order_id left join users u on u.id = o.user_id
      where ${scope} and coalesce(s.url, o.delivery_url) is not null
      order by s.is_delivery_link desc, s.created_at`,
    [orderId],
  );
  if (sites.length === 0) return [];
  const uptime = await q<{ site_id: string; checks: number; failures: number }>(
    `select d.site_id, sum(d.checks)::int as checks, sum(d.failures)::int as failures
       from site_check_days d join watched_sites s on s.id = d.site_id
      where ${scope} and d.day >= $2::date group by d.site_id`,
    [orderId, day30],
  );
  const p50 = await q<{ site_id: string; p50: number }>(
    `select r.site_id, percentile_disc(0.5) within group (order by r.total_ms) as p50
       from site_check_results r join watched_sites s on s.id = r.site_id
      where ${scope} and r.ok and r.checked_at >= $2::timestamptz group by r.site_id`,
    [orderId, new Date(now.getTime() - DAY_MS).toISOString()],
  );
  const incidents = await q<{ site_id: string; started_at: Date | string; ended_at: Date | string | null; cause: IncidentCause }>(
    `select site_id, started_at, ended_at, cause from (
       select i.*, row_number() over (partition by i.site_id order by i.started_at desc) as n
         from site_incidents i join watched_sites s on s.id = i.site_id where ${scope}) x
      where n <= ${INCIDENTS_SHOWN} order by started_at desc`,
    [orderId],
  );
  const days = orderId
    ? await q<{ site_id: string; day: string; checks: number; failures: number }>(
        `select d.site_id, to_char(d.day, 'YYYY-MM-DD') as day, d.checks, d.failures
           from site_check_days d join watched_sites s on s.id = d.site_id where ${scope} and d.day >= $2::date`,
        [orderId, day90],
      )
    : [];
  const strip = orderId ? ninetyDays(now, tz) : [];
  return sites.map((s) => {
    const u = uptime.find((x) => x.site_id === s.id);
    const certTo = s.cert_valid_to ? new Date(s.cert_valid_to) : null;
    const domainAt = s.domain_expires_at ? new Date(s.domain_expires_at) : null;
    const mine = days.filter((d) => d.site_id === s.id);
    return {
      id: s.id,
      orderId: s.public_id,
      customerName: s.customer_name,
      url: s.url!,
      status: s.state,
      checkedAt: iso(s.last_checked_at),
      uptime30d: u ? uptimePercent(u.checks, u.failures) : null,
      responseP50Ms: p50.find((x) => x.site_id === s.id)?.p50 ?? null,
      certificate: certTo ? { validTo: certTo.toISOString(), daysLeft: daysLeft(certTo, now) } : null,
      domain: domainAt ? { expiresAt: domainAt.toISOString(), daysLeft: daysLeft(domainAt, now) } : null,
      incidents: incidents
        .filter((i) => i.site_id === s.id)
        .map((i) => ({ startedAt: iso(i.started_at)!, endedAt: iso(i.ended_at), cause: i.cause })),
      isDeliveryLink: s.is_delivery_link,
      expectText: s.expect_text,
      watching: s.watching,
      stoppedNote: s.stopped_note,
      domainRenewedBy: s.domain_renewed_by,
      days: strip.map((day) => {
        const d = mine.find((x) => x.day === day);
        return { day, uptime: d ? uptimePercent(d.checks, d.failures) : null };
      }),
    };
  });
}

/** The 90 days up to today in `timeZone`, oldest first. */
function ninetyDays(now: Date, timeZone: string): string[] {
  const out: string[] = [];
  for (let i = 89; i >= 0; i--) out.push(dayOf(new Date(now.getTime() - i * DAY_MS), timeZone));
  return [...new Set(out)];
}

/** How bad a site looks, for /admin/sites: down, then certificate and domain warnings, then the rest. */
export function severity(s: AdminSite): number {
  if (!s.watching) return 5;
  if (s.status === 'down') return 0;
  if (s.certificate && s.certificate.daysLeft <= CERT_WARNING_DAYS[0]) return 1;
  if (s.domain && s.domain.daysLeft <= DOMAIN_WARNING_DAYS[0]) return 2;
  if (s.status === 'unknown') return 3;
  return 4;
}

/** Every watched site, worst first (within a rank: the soonest expiry, then the lowest uptime). */
export async function adminSites(deps: AppDeps, now: Date): Promise<AdminSite[]> {
  const all = await readHealth(deps, null, now);
  const soonest = (s: AdminSite) => Math.min(s.certificate?.daysLeft ?? Infinity, s.domain?.daysLeft ?? Infinity);
  return all.sort(
    (a, b) =>
      severity(a) - severity(b) || soonest(a) - soonest(b) || (a.uptime30d ?? 101) - (b.uptime30d ?? 101) || a.url.localeCompare(b.url),
  );
}

/** How many watched sites are down (the overview's "2 sites down"). */
export async function sitesDown(database: AppDeps['database']): Promise<number> {
  const [row] = await database.query<{ n: number }>(`select count(*)::int as n from watched_sites where watching and state = 'down'`);
  return row?.n ?? 0;
}
