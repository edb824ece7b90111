import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { CareReportData } from '../../../contract/site-care.ts';
import { formatDuration } from '../../../domain/site-care.ts';
import { formatMoney } from '../../../domain/money.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { Button } from '../../components/ui/button.tsx';
import { downloadOperation } from '../../lib/call-file.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { PanelCard, PanelError, PanelLoading } from '../workspace/index.ts';
import type { Side } from '../workspace/index.ts';
import { CARE_REPORT, CARE_REPORT_PDF, CAUSE_LABELS, formatMonth } from './site-care-api.ts';
import { formatDate, formatWhenShort } from '../../../domain/when.ts';

// One monthly care report (docs/decisions/327-care-reports.md), the same page on both sides: the
// customer's /status/:id/care/:month and the agency's /admin/orders/:id/care/:month. It draws the
// data frozen when the report was written, as its PDF does.

// The report reads as its PDF does: in its own zone, named (docs/decisions/335-one-rule-for-times.md).
const day = (iso: string, timeZone: string) => formatDate(iso, timeZone, true);
const when = (iso: string, timeZone: string) => formatWhenShort(iso, timeZone);

export default function CareReportPage({ side }: { side: Side }) {
  const { id = '', month = '' } = useParams();
  const partial = useSearchParams()[0].get('partial') === '1';
  const query = partial ? { partial: '1' as const } : {};
  const report = useOperation(CARE_REPORT[side], { params: { orderId: id, month }, query });
  const [error, setError] = useState<string | null>(null);
  const back = side === 'agency' ? `/admin/orders/${id}?tab=support` : `/status/${id}?tab=support`;
  const title = `Care report, ${formatMonth(month)}${partial ? ' (so far)' : ''}`;
  return (
    <section className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-10 sm:py-14">
      <Link to={back} className="text-sm text-muted hover:text-white">
        ← Order {id}
      </Link>
      <header className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-bold text-white sm:text-3xl">{title}</h1>
        {report.data && (
          <Button
            variant="secondary"
            onClick={async () =>
              setError(
                await downloadOperation(CARE_REPORT_PDF[side], { params: { orderId: id, month }, query }, `care-report-${id}-${month}.pdf`),
              )
            }
          >
            Download the PDF
          </Button>
        )}
      </header>
      {error && <PanelError message={error} />}
      {report.data ? (
        <Report data={report.data.report.data} />
      ) : report.error ? (
        <PanelError message={report.error} />
      ) : (
        <PanelLoading label="Loading the report" />
      )}
    </section>
  );
}

function Report({ data }: { data: CareReportData }) {
  const tz = data.timeZone;
  return (
    <>
      <p className="text-muted">
        {day(data.from, tz)} – {day(data.until, tz)} ({tz})
      </p>
      <PanelCard>
        <h2 className="text-lg font-semibold text-white">Your website</h2>
        {data.sites.length === 0 && <p className="mt-2 text-ink">No site was watched this month.</p>}
        {data.sites.map((s) => (
          <div key={s.url} className="mt-3 min-w-0" data-testid="report-site">
            <h3 className="font-medium break-all text-white">{s.url}</h3>
            <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
              <Figure label="Uptime" value={s.uptime === null ? 'not checked' : `${s.uptime.toFixed(2)} %`} />
              <Figure label="Response p50 / p95" value={s.p50Ms === null ? '—' : `${s.p50Ms} / ${s.p95Ms} ms`} />
              <Figure label="Certificate" value={s.certificateDaysLeft === null ? '—' : `${s.certificateDaysLeft} days left`} />
              <Figure label="Domain" value={s.domainDaysLeft === null ? '—' : `${s.domainDaysLeft} days left`} />
            </dl>
            <h4 className="mt-3 text-sm font-semibold text-ink">Incidents</h4>
            {s.incidents.length === 0 ? (
              <p className="text-sm text-muted">None.</p>
            ) : (
              <ul className="text-sm text-ink" data-testid="report-incidents">
                {s.incidents.map((i) => (
                  <li key={i.startedAt}>
                    {when(i.startedAt, tz)} – {i.endedAt ? when(i.endedAt, tz) : 'still down'}: {formatDuration(i.minutes)},{' '}
                    {CAUSE_LABELS[i.cause]}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </PanelCard>
      <PanelCard>
        <h2 className="text-lg font-semibold text-white">Support</h2>
        <p className="mt-2 text-ink">
          {data.support.opened} request{data.support.opened === 1 ? '' : 's'} opened, {data.support.resolved} resolved.
        </p>
        <ul className="mt-1 text-sm text-ink">
          {data.support.requests.map((r) => (
            <li key={r.openedAt} className="wrap-anywhere">
              {r.title} — opened {day(r.openedAt, tz)}, first response{' '}
              {r.firstResponseMinutes === null ? 'pending' : `after ${formatDuration(r.firstResponseMinutes)}`}
              {r.resolvedAt ? `, resolved ${day(r.resolvedAt, tz)}` : ''}
            </li>
          ))}
        </ul>
      </PanelCard>
      <PanelCard>
        <h2 className="text-lg font-semibold text-white">Changes delivered</h2>
        {data.changes.length === 0 ? (
          <p className="mt-2 text-ink">None this month.</p>
        ) : (
          <ul className="mt-2 text-sm text-ink">
            {data.changes.map((c) => (
              <li key={`${c.title}-${c.at}`} className="wrap-anywhere">
                {c.title} — {day(c.at, tz)}
              </li>
            ))}
          </ul>
        )}
      </PanelCard>
      <PanelCard>
        <h2 className="text-lg font-semibold text-white">Maintenance plan</h2>
        {data.charges.length === 0 ? (
          <p className="mt-2 text-ink">No plan document this month.</p>
        ) : (
          <ul className="mt-2 text-sm text-ink">
            {data.charges.map((c) => {
              const cur = findCurrency(c.currency);
              return (
                <li key={c.number}>
                  Tax invoice {c.number} of {day(c.issuedAt, tz)}:{' '}
                  {formatMoney(c.amount, { symbol: cur?.symbol ?? `${c.currency} `, minorDigits: cur?.minorDigits ?? 2 })}
                </li>
              );
            })}
          </ul>
        )}
      </PanelCard>
    </>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted">{label}</dt>
      <dd className="font-medium text-white">{value}</dd>
    </div>
  );
}
