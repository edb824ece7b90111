import { and, desc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { planChargesOf } from '../ledger/plan-charges.ts';
import type { Db, Tx } from '../../db/client.ts';
import { careReports } from '../../db/schema/site-care.ts';
import { notFound } from '../../lib/app-error.ts';
import { renderEmail } from '../mail/render-email.ts';
import { dueReportMonth, minutesBetween, monthRange, uptimePercent, daysLeft } from '../../../domain/site-care.ts';
import type { CareReportData, CareReportSummary, IncidentCause } from '../../../contract/site-care.ts';

// The monthly care report (docs/decisions/327-care-reports.md): on the 1st at 09:00 in
// INVOICE_TIME_ZONE one report per watched order for the month before — uptime, incidents, times,
// certificate and domain, support, changes and the plan's documents — frozen as data when written.
// The page and the PDF draw that data; the customer's mail carries the PDF (rendered by the mail
// worker: the outbox's `renders`). A report is written once per order, month and kind (the
// month's own, or "so far" during the month): a re-run writes only what is missing.

export const CARE_REPORT_TEMPLATE = 'care-report';
const MARK = 'care_reports_written_through';

type Q = AppDeps['database']['query'];

/** The orders that had a watched site during [from, until). */
async function watchedOrders(q: Q, from: Date, until: Date) {
  return q<{ id: string; public_id: string; email: string }>(
    `select distinct o.id, o.public_id, u.email
       from watched_sites s join orders o on o.id = s.order_id join users u on u.id = o.user_id
      where s.created_at < $2::timestamptz
        and (s.watching or exists (select 1 from site_check_results r
              where r.site_id = s.id and r.checked_at >= $1::timestamptz and r.checked_at < $2::timestamptz))`,
    [from.toISOString(), until.toISOString()],
  );
}

/** Support requests opened in the month, with their first response; how many were resolved in it. */
async function supportOf(q: Q, orderId: string, from: Date, until: Date): Promise<CareReportData['support']> {
  const requests = await q<{
    title: string;
    created_at: Date | string;
    resolved_at: Date | string | null;
    first_response_at: Date | string | null;
  }>(
    `select title, created_at, coalesce(resolved_at, closed_at) as resolved_at, first_response_at from support_requests
      where order_id = $1 and created_at >= $2::timestamptz and created_at < $3::timestamptz order by created_at`,
    [orderId, from.toISOString(), until.toISOString()],
  );
  const [resolved] = await q<{ n: number }>(
    `select count(*)::int as n from support_requests where order_id = $1 and coalesce(resolved_at, closed_at) >= ` +
      `$2::timestamptz and coalesce(resolved_at, closed_at) < $3::timestamptz`,
    [orderId, from.toISOString(), until.toISOString()],
  );
  return {
    opened: requests.length,
    resolved: resolved?.n ?? 0,
    requests: requests.map((r) => ({
      title: r.title,
      openedAt: new Date(r.created_at).toISOString(),
      resolvedAt: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
      firstResponseMinutes: r.first_response_at ? minutesBetween(new Date(r.created_at), new Date(r.first_response_at)) : null,
    })),
  };
}

/** Changes delivered in the month: accepted (paid) or included changes decided in it. */
async function changesOf(q: Q, orderId: string, from: Date, until: Date): Promise<CareReportData['changes']> {
  const rows = await q<{ title: string; at: Date | string }>(
    `select title, coalesce(paid_at, decided_at) as at from order_changes
      where order_id = $1 and state in ('accepted', 'included') and coalesce(paid_at, decided_at) >= $2::timestamptz and
      coalesce(paid_at, decided_at) < $3::timestamptz
      order by at`,
    [orderId, from.toISOString(), until.toISOString()],
  );
  return rows.map((r) => ({ title: r.title, at: new Date(r.at).toISOString() }));
}

async function sitesOf(deps: AppDeps, orderId: string, from: Date, until: Date, now: Date): Promise<CareReportData['sites']> {
  const q = deps.database.query.bind(deps.database);
  const tz = deps.config.INVOICE_TIME_ZONE;
  const sites = await q<{ id: string; url: string; cert_valid_to: Date | string | null; domain_expires_at: Date | string | null }>(
    `select s.id, coalesce(s.url, o.delivery_url) as url, s.cert_valid_to, s.domain_expires_at
       from watched_sites s join orders o on o.id = s.order_id
      where s.order_id = $1 and s.created_at < $2::timestamptz and coalesce(s.url, o.delivery_url) is not null
      order by s.is_delivery_link desc, s.created_at`,
    [orderId, until.toISOString()],
  );
  const out: CareReportData['sites'] = [];
  for (const s of sites) {
    const [counts] = await q<{ checks: number; failures: number }>(
      `select coalesce(sum(checks), 0)::int as checks, coalesce(sum(failures), 0)::int as failures from site_check_days
        where site_id = $1 and day >= ($2::timestamptz at time zone $4)::date and day <= (($3::timestamptz - interval '1 microsecond') at time zone $4)::date`,
      [s.id, from.toISOString(), until.toISOString(), tz],
    );
    const [times] = await q<{ p50: number | null; p95: number | null }>(
      `select percentile_disc(0.5) within group (order by total_ms) as p50, percentile_disc(0.95) within group (order by total_ms) as p95
         from site_check_results where site_id = $1 and ok and checked_at >= $2::timestamptz and checked_at < $3::timestamptz`,
      [s.id, from.toISOString(), until.toISOString()],
    );
    const incidents = await q<{ started_at: Date | string; ended_at: Date | string | null; cause: IncidentCause }>(
      `select started_at, ended_at, cause from site_incidents
        where site_id = $1 and started_at < $3::timestamptz and (ended_at is null or ended_at >= $2::timestamptz) order by started_at`,
      [s.id, from.toISOString(), until.toISOString()],
    );
    const certTo = s.cert_valid_to ? new Date(s.cert_valid_to) : null;
    const domainAt = s.domain_expires_at ? new Date(s.domain_expires_at) : null;
    out.push({
      url: s.url,
      uptime: uptimePercent(counts?.checks ?? 0, counts?.failures ?? 0),
      checks: counts?.checks ?? 0,
      failures: counts?.failures ?? 0,
      p50Ms: times?.p50 ?? null,
      p95Ms: times?.p95 ?? null,
      certificateDaysLeft: certTo ? daysLeft(certTo, now) : null,
      domainDaysLeft: domainAt ? daysLeft(domainAt, now) : null,
      incidents: incidents.map((i) => {
        const started = new Date(i.started_at);
        const ended = i.ended_at ? new Date(i.ended_at) : null;
        // The part inside the month.
        const a = started < from ? from : started;
        const b = ended && ended < until ? ended : until < now ? until : now;
        return { startedAt: started.toISOString(), endedAt: ended?.toISOString() ?? null, cause: i.cause, minutes: minutesBetween(a, b) };
      }),
    });
  }
  return out;
}

/** What one order's report of `month` says at `now` (a month not over yet: "so far"). */
export async function reportData(
  deps: AppDeps,
  order: { id: string; publicId: string },
  month: string,
  now: Date,
): Promise<CareReportData> {
  const tz = deps.config.INVOICE_TIME_ZONE;
  const { from, until: end } = monthRange(month, tz);
  const partial = now < end;
  const until = partial ? now : end;
  const q = deps.database.query.bind(deps.database);
  return {
    orderId: order.publicId,
    month,
    partial,
    from: from.toISOString(),
    until: until.toISOString(),
    timeZone: tz,
    sites: await sitesOf(deps, order.id, from, until, now),
    support: await supportOf(q, order.id, from, until),
    changes: await changesOf(q, order.id, from, until),
    charges: await planChargesOf(q, order.id, from, until),
  };
}

/** The month's uptime over every URL (the sum of checks), for the list and the mail. */
export function overallUptime(data: CareReportData): number | null {
  return uptimePercent(
    data.sites.reduce((n, s) => n + s.checks, 0),
    data.sites.reduce((n, s) => n + s.failures, 0),
  );
}

const monthLabel = (month: string) =>
  new Date(`${month}-15T00:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * Writes the reports of `month` that do not exist yet, each with its mail to the customer (the
 * month's own; a "so far" report is not mailed). Returns how many were written and skipped.
 */
export async function writeReports(deps: AppDeps, month: string, now: Date): Promise<{ written: number; skipped: number }> {
  const tz = deps.config.INVOICE_TIME_ZONE;
  const { from, until } = monthRange(month, tz);
  const partial = now < until;
  if (now < from) return { written: 0, skipped: 0 };
  const orders = await watchedOrders(deps.database.query.bind(deps.database), from, partial ? now : until);
  let written = 0;
  let skipped = 0;
  for (const o of orders) {
    const exists = await deps.db
      .select({ id: careReports.id })
      .from(careReports)
      .where(and(eq(careReports.orderId, o.id), eq(careReports.month, month), eq(careReports.partial, partial)));
    if (exists.length) {
      skipped++;
      continue;
    }
    const data = await reportData(deps, { id: o.id, publicId: o.public_id }, month, now);
    const done = await deps.events.transaction(async (tx) => {
      const [row] = await tx
        .insert(careReports)
        .values({ orderId: o.id, month, partial, data, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: careReports.id });
      if (!row) return false; // another instance wrote it meanwhile
      if (!partial) await mailReport(deps, tx, o.email, row.id, data);
      return true;
    });
    if (done) written++;
    else skipped++;
  }
  return { written, skipped };
}

async function mailReport(deps: AppDeps, tx: Tx, to: string, reportId: string, data: CareReportData) {
  const uptime = overallUptime(data);
  const incidents = data.sites.reduce((n, s) => n + s.incidents.length, 0);
  await deps.mailer.enqueue(
    tx,
    to,
    CARE_REPORT_TEMPLATE,
    renderEmail(deps.config.BRAND_NAME, {
      subject: `Your website's care report — ${monthLabel(data.month)} (${data.orderId})`,
      heading: `Care report, ${monthLabel(data.month)}`,
      paragraphs: ['How your website did last month, what we did for it, and the plan’s documents. The full report is attached as a PDF.'],
      rows: [
        ['Order', data.orderId],
        ['Uptime', uptime === null ? 'not checked' : `${uptime.toFixed(2)} %`],
        ['Incidents', String(incidents)],
        ['Support requests', `${data.support.opened} opened, ${data.support.resolved} resolved`],
      ],
      action: { label: 'Open the report', url: `${deps.config.publicUrl}/status/${data.orderId}/care/${data.month}` },
    }),
    [{ kind: 'care-report', id: reportId }],
  );
}

/** The scheduled run: the month due at `now` (from the 1st at 09:00), once for all instances. */
export async function writeDueReports(deps: AppDeps, now: Date): Promise<number> {
  const month = dueReportMonth(now, deps.config.INVOICE_TIME_ZONE);
  const [mark] = await deps.database.query<{ value: string }>(`select value from site_care_marks where name = $1`, [MARK]);
  if (mark && mark.value >= month) return 0;
  const { written } = await writeReports(deps, month, now);
  await deps.database.query(
    `insert into site_care_marks (name, value, updated_at) values ($1, $2, now())
     on conflict (name) do update set value = greatest(site_care_marks.value, excluded.value), updated_at = now()`,
    [MARK, month],
  );
  return written;
}

const summaryOf = (r: { month: string; partial: boolean; createdAt: Date; data: CareReportData }, pdfUrl: string): CareReportSummary => ({
  month: r.month,
  createdAt: r.createdAt.toISOString(),
  uptime: overallUptime(r.data),
  incidents: r.data.sites.reduce((n, s) => n + s.incidents.length, 0),
  pdfUrl,
  partial: r.partial,
});

/** An order's reports, newest first; `pdfPath` names each PDF for the side that reads them. */
export async function listReports(
  db: Db,
  orderId: string,
  pdfPath: (month: string, partial: boolean) => string,
): Promise<CareReportSummary[]> {
  const rows = await db
    .select()
    .from(careReports)
    .where(eq(careReports.orderId, orderId))
    .orderBy(desc(careReports.month), careReports.partial);
  return rows.map((r) => summaryOf({ ...r, data: r.data as unknown as CareReportData }, pdfPath(r.month, r.partial)));
}

export async function reportOf(db: Db, orderId: string, month: string, partial: boolean) {
  const [row] = await db
    .select()
    .from(careReports)
    .where(and(eq(careReports.orderId, orderId), eq(careReports.month, month), eq(careReports.partial, partial)));
  if (!row) throw notFound('No care report for this month.');
  return { ...row, data: row.data as unknown as CareReportData };
}

export async function reportById(db: Db, id: string) {
  const [row] = await db.select().from(careReports).where(eq(careReports.id, id));
  if (!row) throw notFound('No such care report.');
  return { ...row, data: row.data as unknown as CareReportData };
}

export { summaryOf };
