import type { CareReportData } from '../../../contract/site-care.ts';
import { formatMoney } from '../../../domain/money.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { formatDuration } from '../../../domain/site-care.ts';
import { CAUSE_TEXT } from './site-mails.ts';
import { a4Document, BOLD, REGULAR } from '../../lib/pdf-document.ts';

// The care report as an A4 PDF, with the invoices' page and fonts (src/server/lib/pdf-document.ts).

const dateOf = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleString('en-GB', { day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone });
const dayOf = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: '2-digit', month: 'short', year: 'numeric', timeZone });
const ms = (v: number | null) => (v === null ? '—' : `${v} ms`);
const pct = (v: number | null) => (v === null ? 'not checked' : `${v.toFixed(2)} %`);

export function careReportTitle(d: CareReportData): string {
  const label = new Date(`${d.month}-15T00:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return `Care report, ${label}${d.partial ? ' (so far)' : ''}`;
}

export async function renderCareReportPdf(d: CareReportData, brand: string, createdAt: Date): Promise<Buffer> {
  const title = careReportTitle(d);
  const { doc, bytes } = await a4Document({ Title: `${title} — ${d.orderId}`, Author: brand, CreationDate: createdAt, ModDate: createdAt });
  const left = 50;
  const width = doc.page.width - 100;
  const heading = (text: string) =>
    doc.moveDown(0.8).font(BOLD).fontSize(12).text(text, left, doc.y, { width }).font(REGULAR).fontSize(10).moveDown(0.3);
  const line = (text: string) => doc.text(text, left, doc.y, { width });

  doc.font(BOLD).fontSize(18).text(title, left, 50);
  doc.font(REGULAR).fontSize(10).text(`${brand} · order ${d.orderId}`);
  line(`${dayOf(d.from, d.timeZone)} – ${dayOf(d.until, d.timeZone)} (${d.timeZone})`);

  heading('Your website');
  if (d.sites.length === 0) line('No site was watched this month.');
  for (const s of d.sites) {
    doc.font(BOLD).text(s.url, left, doc.y, { width }).font(REGULAR);
    line(`Uptime ${pct(s.uptime)} over ${s.checks} checks · response time p50 ${ms(s.p50Ms)}, p95 ${ms(s.p95Ms)}`);
    line(
      `Certificate: ${s.certificateDaysLeft === null ? '—' : `${s.certificateDaysLeft} days left`} · Domain: ` +
        `${s.domainDaysLeft === null ? '—' : `${s.domainDaysLeft} days left`}`,
    );
    if (s.incidents.length === 0) line('No incidents.');
    for (const i of s.incidents)
      line(
        `• Down ${dateOf(i.startedAt, d.timeZone)} – ${i.endedAt ? dateOf(i.endedAt, d.timeZone) : 'still down'}: ` +
          `${formatDuration(i.minutes)}, ${CAUSE_TEXT[i.cause]}`,
      );
    doc.moveDown(0.4);
  }

  heading('Support');
  line(`${d.support.opened} request${d.support.opened === 1 ? '' : 's'} opened, ${d.support.resolved} resolved.`);
  for (const r of d.support.requests)
    line(
      `• ${r.title} — opened ${dayOf(r.openedAt, d.timeZone)}, first response ` +
        `${r.firstResponseMinutes === null ? 'pending' : `after ${formatDuration(r.firstResponseMinutes)}`}` +
        `${r.resolvedAt ? `, resolved ${dayOf(r.resolvedAt, d.timeZone)}` : ''}`,
    );

  heading('Changes delivered');
  if (d.changes.length === 0) line('None this month.');
  for (const c of d.changes) line(`• ${c.title} — ${dayOf(c.at, d.timeZone)}`);

  heading('Maintenance plan');
  if (d.charges.length === 0) line('No plan document this month.');
  for (const c of d.charges) {
    const cur = findCurrency(c.currency);
    line(
      `• Tax invoice ${c.number} of ${dayOf(c.issuedAt, d.timeZone)}: ` +
        `${formatMoney(c.amount, { symbol: cur?.symbol ?? `${c.currency} `, minorDigits: cur?.minorDigits ?? 2 })}`,
    );
  }
  doc.end();
  return bytes;
}
