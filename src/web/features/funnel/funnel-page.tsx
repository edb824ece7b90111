import { useState } from 'react';
import { FUNNEL_STAGES, funnelCountsOf, type FunnelCounts, type FunnelResponse, type FunnelStage } from '../../../contract/funnel.ts';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/text-field.tsx';
import { Card, ErrorText, Loadable, PageHeader, Table, td } from '../../components/back-office/admin-ui.tsx';
import { DailyBarChart, HorizontalBarChart, type Series } from '../../components/back-office/charts.tsx';
import { downloadCsv } from '../../components/back-office/download-csv.ts';
import { shortDay } from '../../components/back-office/format.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminFunnel } from '../../../contract/funnel.ts';
import { getAdminFunnelCsv } from '../../../contract/admin-leads.ts';

// Back office: the cookieless conversion funnel (decision 097). Sources are typed by
// visitors (utm_source, a referring host): they are only ever rendered as React text, so a forged
// "<script>" shows as those characters.

export const STAGE_LABELS: Record<FunnelStage, string> = {
  visitors: 'Visitors',
  leads: 'Leads',
  contacts: 'Contact messages',
  signups: 'Sign-ups',
  advancePaid: 'Advance paid',
  delivered: 'Delivered',
};
const WEEK_CHOICES = [4, 12, 26, 52] as const;
const COLORS = ['#8b5cf6', '#22c55e', '#f59e0b', '#38bdf8', '#f472b6'];
const OTHER_COLOR = '#71717a';
const TOP_SOURCES = COLORS.length;
export const ALL = '';

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 1000) / 10} %` : '—');

/**
 * The funnel's steps for one row of counts: each is a later point of one customer's path (an
 * order needs an account, a delivery an advance). Leads and contact messages are not a step: a
 * customer signs up without writing first, so "messages → sign-ups" read 200 % (decision 127).
 */
export function funnelSteps(c: FunnelCounts) {
  return [
    { label: 'Visitors', value: c.visitors },
    { label: 'Sign-ups', value: c.signups },
    { label: 'Advance paid', value: c.advancePaid },
    { label: 'Delivered', value: c.delivered },
  ];
}

/** Leads and contact messages together: visitors who wrote to the agency. */
export const enquiriesOf = (c: FunnelCounts) => c.leads + c.contacts;

/**
 * The conversion from one step to the next, or null when it means nothing: no one at the step
 * before, or more at this step than the one before — the weeks count events, not one person's path,
 * so earlier sign-ups paying now can outnumber this period's sign-ups (decision 127).
 */
export function stepRate(part: number, whole: number): string | null {
  return whole > 0 && part <= whole ? percent(part, whole) : null;
}

/** One stage per week, stacked by source: the biggest sources, the rest as "Other sources". */
export function seriesByStage(data: FunnelResponse, stage: FunnelStage, source: string): Series[] {
  if (source !== ALL) {
    const s = data.sources.find((x) => x.source === source);
    return [
      {
        label: source,
        values: data.weeks.map((_, i) => s?.perWeek[i]?.[stage] ?? 0),
        color: COLORS[0]!,
      },
    ];
  }
  const ranked = [...data.sources].sort((a, b) => b.total[stage] - a.total[stage]).filter((s) => s.total[stage] > 0);
  const top = ranked.slice(0, TOP_SOURCES);
  const rest = ranked.slice(TOP_SOURCES);
  const series: Series[] = top.map((s, k) => ({
    label: s.source,
    values: s.perWeek.map((w) => w[stage]),
    color: COLORS[k]!,
  }));
  if (rest.length) {
    series.push({
      label: 'Other sources',
      values: data.weeks.map((_, i) => rest.reduce((n, s) => n + s.perWeek[i]![stage], 0)),
      color: OTHER_COLOR,
    });
  }
  return series.length
    ? series
    : [
        {
          label: STAGE_LABELS[stage],
          values: data.weeks.map(() => 0),
          color: COLORS[0]!,
        },
      ];
}

/** The report itself, without loading (rendered by the page and by its tests). */
export function FunnelView({ data, stage, source }: { data: FunnelResponse; stage: FunnelStage; source: string }) {
  const picked = source === ALL ? null : data.sources.find((s) => s.source === source);
  const totals = picked?.total ?? data.total.reduce((acc, w) => (FUNNEL_STAGES.forEach((k) => (acc[k] += w[k])), acc), funnelCountsOf());
  const steps = funnelSteps(totals);
  const range = `${shortDay(data.weeks[0]!)} – ${shortDay(data.weeks[data.weeks.length - 1]!)}`;
  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-6 xl:grid-cols-2">
        <Card title={`Funnel, ${data.weeks.length} weeks (${range})`}>
          <HorizontalBarChart title={picked ? `Source: ${picked.source}` : 'All sources'} rows={steps} />
          <ol className="mt-3 flex flex-col gap-1 text-sm text-muted" aria-label="Conversion between steps">
            {steps.slice(1).map((s, i) => (
              <li key={s.label} data-testid="funnel-step-rate">
                {steps[i]!.label} → {s.label}: <span className="text-ink">{stepRate(s.value, steps[i]!.value) ?? '—'}</span>
              </li>
            ))}
          </ol>
          <p className="mt-2 text-sm text-muted" data-testid="funnel-enquiries">
            Leads and contact messages: <span className="text-ink">{enquiriesOf(totals)}</span>
            {totals.visitors > 0 && <> ({stepRate(enquiriesOf(totals), totals.visitors) ?? '—'} of visitors)</>}
          </p>
          <p className="mt-2 text-xs text-muted">
            Each step counts what happened in these weeks, not one person&apos;s path: a step with more than the one before (earlier
            sign-ups paying now) shows “—”. Leads and contact messages sit beside the funnel: customers sign up without writing first.
          </p>
        </Card>
        <Card title={`${STAGE_LABELS[stage]} per week`}>
          <DailyBarChart
            title={`${STAGE_LABELS[stage]} per week (weeks start on Monday, UTC), by first-touch source`}
            days={data.weeks}
            series={seriesByStage(data, stage, source)}
            integer
          />
        </Card>
      </div>
      <Card title="By source">
        {data.sources.length === 0 ? (
          <p className="text-sm text-muted">Nothing counted in these weeks yet.</p>
        ) : (
          <Table label="Funnel by source" head={['Source', ...FUNNEL_STAGES.map((s) => STAGE_LABELS[s]), 'Visitor → paid']}>
            {data.sources.map((s) => (
              <tr key={s.source} data-testid="funnel-source-row">
                <td className={`${td} break-all font-medium text-white`}>{s.source}</td>
                {FUNNEL_STAGES.map((k) => (
                  <td key={k} className={`${td} tabular-nums`}>
                    {s.total[k]}
                  </td>
                ))}
                <td className={`${td} tabular-nums`}>{stepRate(s.total.advancePaid, s.total.visitors) ?? '—'}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}

export default function FunnelPage() {
  const [weeks, setWeeks] = useState<number>(12);
  const [stage, setStage] = useState<FunnelStage>('visitors');
  const [source, setSource] = useState(ALL);
  const [exportError, setExportError] = useState<string | null>(null);
  const { data, error, loading } = useOperation(getAdminFunnel, { query: { weeks } });

  async function exportCsv() {
    setExportError(await downloadCsv(getAdminFunnelCsv, { query: { weeks } }, 'funnel.csv'));
  }

  return (
    <>
      <PageHeader title="Funnel">
        <Button variant="secondary" onClick={exportCsv}>
          Download CSV
        </Button>
      </PageHeader>
      <p className="mb-4 max-w-3xl text-sm text-muted">
        Visitors are counted on the server without cookies (a visitor is a hash that changes every day), so a person who comes back on
        another day counts again. Each lead, contact message, sign-up and order carries the source of the visitor&apos;s first page view
        with one: the utm_source of the link, else the site they came from, else “(direct)”.
      </p>
      <div className="mb-6 flex flex-wrap items-end gap-4">
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink">
          Weeks
          <select className={inputClass} value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
            {WEEK_CHOICES.map((n) => (
              <option key={n} value={n}>
                Last {n} weeks
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink">
          Chart
          <select className={inputClass} value={stage} onChange={(e) => setStage(e.target.value as FunnelStage)}>
            {FUNNEL_STAGES.map((s) => (
              <option key={s} value={s}>
                {STAGE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink">
          Source
          <select className={inputClass} value={source} onChange={(e) => setSource(e.target.value)}>
            <option value={ALL}>All sources</option>
            {data?.sources.map((s) => (
              <option key={s.source} value={s.source}>
                {s.source}
              </option>
            ))}
          </select>
        </label>
      </div>
      {exportError && <ErrorText>{exportError}</ErrorText>}
      <Loadable loading={loading && !data} error={error}>
        {data && <FunnelView data={data} stage={stage} source={source} />}
      </Loadable>
    </>
  );
}
