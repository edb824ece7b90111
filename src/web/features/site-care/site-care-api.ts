import {
  deleteAdminOrdersSites,
  getAdminOrdersCareReports,
  getAdminOrdersCareReportsByMonth,
  getAdminOrdersCareReportsPdf,
  getAdminOrdersSiteHealth,
  getOrdersCareReports,
  getOrdersCareReportsByMonth,
  getOrdersCareReportsPdf,
  getOrdersSiteHealth,
  type IncidentCause,
  type SiteHealth,
} from '../../../contract/site-care.ts';
import { formatDuration } from '../../../domain/site-care.ts';
import type { Workspace } from '../workspace/index.ts';
import { formatDay, formatWhenShort } from '../../../domain/when.ts';

// Site care in the browser (docs/decisions/329-site-care-screens.md): each side's operation for the
// same screen (the customer's /status/:id and the agency's /admin/orders/:id), and the words.

export const SITE_HEALTH = { customer: getOrdersSiteHealth, agency: getAdminOrdersSiteHealth } as const;
export const CARE_REPORTS = { customer: getOrdersCareReports, agency: getAdminOrdersCareReports } as const;
export const CARE_REPORT = { customer: getOrdersCareReportsByMonth, agency: getAdminOrdersCareReportsByMonth } as const;
export const CARE_REPORT_PDF = { customer: getOrdersCareReportsPdf, agency: getAdminOrdersCareReportsPdf } as const;
export const SITE_DELETE = deleteAdminOrdersSites;

/** Where a report's page is, on the side's order page. */
export const careReportPath = (ws: Workspace, month: string, partial: boolean) =>
  `${ws.side === 'agency' ? `/admin/orders/${ws.orderId}` : `/status/${ws.orderId}`}/care/${month}${partial ? '?partial=1' : ''}`;

export const CAUSE_LABELS: Record<IncidentCause, string> = {
  status: 'server error',
  timeout: 'no answer in 10 s',
  text: 'expected text missing',
  certificate: 'certificate refused',
  connection: 'no connection',
  address: 'address not public',
};

export const STATUS_LABELS = { up: 'Up', down: 'Down', unknown: 'Not checked yet' } as const;

/** "2 minutes ago", "just now", "3 hours ago". */
export function ago(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `${Math.round(hours / 24)} days ago`;
}

const plural = (n: number, word: string) => `${n} ${word}${Math.abs(n) === 1 ? '' : 's'}`;

/** The one line of a site: "Up · 99.97 % in the last 30 days · checked 2 minutes ago · certificate valid for 64 days · domain renews in 210 days". */
export function healthLine(s: SiteHealth, now = Date.now()): string {
  const parts: string[] = [STATUS_LABELS[s.status]];
  if (s.uptime30d !== null) parts.push(`${s.uptime30d.toFixed(2)} % in the last 30 days`);
  if (s.checkedAt) parts.push(`checked ${ago(s.checkedAt, now)}`);
  if (s.certificate)
    parts.push(s.certificate.daysLeft >= 0 ? `certificate valid for ${plural(s.certificate.daysLeft, 'day')}` : 'certificate expired');
  if (s.domain) parts.push(s.domain.daysLeft >= 0 ? `domain renews in ${plural(s.domain.daysLeft, 'day')}` : 'domain expired');
  return parts.join(' · ');
}

/** An incident's length: "35 min", or "ongoing". */
export function incidentLength(i: { startedAt: string; endedAt: string | null }, now = Date.now()): string {
  const end = i.endedAt ? Date.parse(i.endedAt) : now;
  const minutes = Math.max(1, Math.ceil((end - Date.parse(i.startedAt)) / 60_000));
  return i.endedAt ? formatDuration(minutes) : `ongoing, ${formatDuration(minutes)} so far`;
}

export const formatWhen = (iso: string) => formatWhenShort(iso);
export const formatMonth = (month: string) => formatDay(month);
