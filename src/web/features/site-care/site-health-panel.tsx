import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  MAX_SITES_PER_ORDER,
  SITE_LIMITS,
  postAdminOrdersSites,
  putAdminOrdersSiteCare,
  postAdminCareReportsRun,
  type SiteHealth,
} from '../../../contract/site-care.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { call } from '../../lib/call.ts';
import { errorMessage, fieldError } from '../../lib/api.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { PanelCard, PanelError, PanelLoading } from '../workspace/index.ts';
import type { Workspace } from '../workspace/index.ts';
import { useCanSee } from '../../components/back-office/owner-only.tsx';
import {
  CARE_REPORTS,
  CAUSE_LABELS,
  SITE_DELETE,
  SITE_HEALTH,
  careReportPath,
  formatMonth,
  formatWhen,
  healthLine,
  incidentLength,
} from './site-care-api.ts';

// The Support tab's health block (docs/decisions/329-site-care-screens.md): each watched site's line
// (state, 30-day uptime, last check, certificate and domain), its last incidents, and a 90-day strip
// of daily uptime that does not rely on colour (each day's bar has a height, a pattern and a
// label); then the monthly care reports. The agency also adds and removes URLs here, and the
// owner keeps an order watched past its support and plan.

/**
 * The site-care reads of the Support tab, started together: the tab calls this before its own answer
 * is in, so the health and the reports are not read one after the other behind it (decision 338).
 */
export function useSiteCareReads(ws: Workspace) {
  const health = useOperation(SITE_HEALTH[ws.side], { params: { orderId: ws.orderId } });
  const reports = useOperation(CARE_REPORTS[ws.side], { params: { orderId: ws.orderId } });
  return { health, reports };
}

export function SiteHealthPanel({ ws }: { ws: Workspace }) {
  const { health } = useSiteCareReads(ws);
  if (!health.data) return health.error ? <PanelError message={health.error} /> : <PanelLoading label="Loading the site's health" />;
  const { sites, settings } = health.data;
  return (
    <PanelCard>
      <h2 className="text-lg font-semibold text-white">{ws.side === 'agency' ? 'Site health' : 'Your website’s health'}</h2>
      {sites.length === 0 ? (
        <p className="mt-2 text-ink">
          {ws.side === 'agency'
            ? 'The delivery link is watched from the delivery: uptime, certificate and domain.'
            : 'We watch your website from its delivery: uptime, certificate and domain.'}
        </p>
      ) : (
        <ul className="mt-3 flex flex-col gap-5">
          {sites.map((s) => (
            <SiteBlock key={s.id} ws={ws} site={s} onChange={health.reload} />
          ))}
        </ul>
      )}
      {ws.side === 'agency' && (
        <AgencyControls ws={ws} count={sites.length} keepWatching={settings.keepWatching} onChange={health.reload} />
      )}
      <CareReports ws={ws} />
    </PanelCard>
  );
}

function SiteBlock({ ws, site, onChange }: { ws: Workspace; site: SiteHealth; onChange(): Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setError(null);
    try {
      await call(SITE_DELETE, { params: { orderId: ws.orderId, siteId: site.id } });
      await onChange();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const tone = site.status === 'down' ? 'border-danger/60' : site.status === 'up' ? 'border-success/50' : 'border-line';
  return (
    <li className={`min-w-0 rounded-xl border ${tone} p-3`} data-testid="site-health">
      <p className="text-sm break-all text-muted">
        {site.url}
        {site.isDeliveryLink ? (ws.side === 'agency' ? ' (the delivery link)' : ' (your website)') : ''}
        {site.expectText ? ` · must show “${site.expectText}”` : ''}
      </p>
      <p className="mt-1 font-medium text-white" data-testid="site-health-line">
        <StatusIcon status={site.status} /> {site.watching ? healthLine(site) : site.stoppedNote}
      </p>
      {site.watching && site.responseP50Ms !== null && <p className="text-sm text-muted">Typical response time {site.responseP50Ms} ms</p>}
      {site.incidents.length > 0 && (
        <div className="mt-3">
          <h3 className="text-sm font-semibold text-ink">Last incidents</h3>
          <ul className="mt-1 flex flex-col gap-1 text-sm text-ink" data-testid="site-incidents">
            {site.incidents.map((i) => (
              <li key={i.startedAt}>
                {formatWhen(i.startedAt)} — {incidentLength(i)} · {CAUSE_LABELS[i.cause]}
              </li>
            ))}
          </ul>
        </div>
      )}
      {site.days.length > 0 && <UptimeStrip days={site.days} />}
      {ws.side === 'agency' && !site.isDeliveryLink && (
        <Button variant="ghost" className="mt-2" onClick={remove} aria-label={`Stop watching ${site.url}`}>
          Stop watching
        </Button>
      )}
      {error && <PanelError message={error} />}
    </li>
  );
}

/** A shape per state, so the state does not rest on colour: ▲ up, ▼ down, ○ not checked yet. */
function StatusIcon({ status }: { status: SiteHealth['status'] }) {
  const shape = { up: '▲', down: '▼', unknown: '○' }[status];
  const color = { up: 'text-success', down: 'text-danger', unknown: 'text-muted' }[status];
  return (
    <span aria-hidden="true" className={color}>
      {shape}
    </span>
  );
}

/**
 * 90 days of daily uptime, oldest first. Each day is a bar whose height is its uptime (a day
 * without checks is a dotted outline, a day below 99 % is striped) with the day and its figure as
 * its accessible name; a sentence sums the strip up for screen readers and everyone else.
 */
function UptimeStrip({ days }: { days: SiteHealth['days'] }) {
  const checked = days.filter((d) => d.uptime !== null);
  const worst = checked.reduce<{ day: string; uptime: number } | null>(
    (w, d) => (w === null || d.uptime! < w.uptime ? { day: d.day, uptime: d.uptime! } : w),
    null,
  );
  const full = checked.filter((d) => d.uptime === 100).length;
  return (
    <figure className="mt-3">
      <ol className="flex h-8 items-end gap-px" aria-label="Daily uptime, last 90 days">
        {days.map((d) => {
          const label = `${d.day}: ${d.uptime === null ? 'not checked' : `${d.uptime.toFixed(2)} %`}`;
          const height = d.uptime === null ? 100 : Math.max(15, d.uptime);
          const look =
            d.uptime === null
              ? 'border border-dotted border-line'
              : d.uptime >= 99.99
                ? 'bg-success'
                : d.uptime >= 99
                  ? 'bg-glow-yellow'
                  : 'bg-danger bg-[repeating-linear-gradient(45deg,transparent_0_2px,rgba(0,0,0,.45)_2px_4px)]';
          return (
            <li
              key={d.day}
              title={label}
              aria-label={label}
              className={`min-w-0 flex-1 rounded-[1px] ${look}`}
              style={{ height: `${height}%` }}
            />
          );
        })}
      </ol>
      <figcaption className="mt-1 text-xs text-muted">
        {checked.length === 0
          ? 'No day checked yet.'
          : `${full} of ${checked.length} checked days at 100 ` +
            `%${worst && worst.uptime < 100 ? `; lowest ${worst.uptime.toFixed(2)} % on ${worst.day}` : ''}.`}{' '}
        Taller is better; striped days were below 99 %, dotted ones not checked.
      </figcaption>
    </figure>
  );
}

function AgencyControls({
  ws,
  count,
  keepWatching,
  onChange,
}: {
  ws: Workspace;
  count: number;
  keepWatching: boolean;
  onChange(): Promise<void>;
}) {
  const owner = useCanSee('site-care-owner');
  const [url, setUrl] = useState('');
  const [expectText, setExpectText] = useState('');
  const [customerDomain, setCustomerDomain] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await call(postAdminOrdersSites, {
        params: { orderId: ws.orderId },
        body: { url: url.trim(), expectText: expectText.trim() || undefined, domainRenewedBy: customerDomain ? 'customer' : 'agency' },
      });
      setUrl('');
      setExpectText('');
      await onChange();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const keep = async () => {
    try {
      await call(putAdminOrdersSiteCare, { params: { orderId: ws.orderId }, body: { keepWatching: !keepWatching } });
      await onChange();
    } catch (err) {
      setError(err);
    }
  };
  const urlError = error ? (fieldError(error, 'url') ?? errorMessage(error)) : null;
  return (
    <div className="mt-5 border-t border-line pt-4">
      {count < MAX_SITES_PER_ORDER ? (
        <form className="flex flex-col gap-3" onSubmit={add} aria-label="Watch another URL">
          <h3 className="font-semibold text-white">
            Watch another URL ({count} of {MAX_SITES_PER_ORDER})
          </h3>
          <TextField
            label="URL"
            type="url"
            required
            value={url}
            maxLength={SITE_LIMITS.url}
            onChange={(e) => setUrl(e.target.value)}
            error={urlError}
            placeholder="https://shop.example.com/checkout"
          />
          <TextField
            label="Text the page must contain (optional)"
            value={expectText}
            maxLength={SITE_LIMITS.expectText}
            onChange={(e) => setExpectText(e.target.value)}
          />
          <label className="flex items-center gap-2 text-sm text-ink">
            <input type="checkbox" checked={customerDomain} onChange={(e) => setCustomerDomain(e.target.checked)} className="h-5 w-5" />
            The customer renews this domain (they hear of its expiry too)
          </label>
          <Button type="submit" disabled={busy} className="self-start">
            Watch this URL
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted">This order watches {MAX_SITES_PER_ORDER} URLs, the most it can.</p>
      )}
      {owner && (
        <label className="mt-4 flex items-center gap-2 text-sm text-ink">
          <input type="checkbox" checked={keepWatching} onChange={keep} className="h-5 w-5" />
          Keep watching after the support and the plan end
        </label>
      )}
    </div>
  );
}

function CareReports({ ws }: { ws: Workspace }) {
  const owner = useCanSee('site-care-owner');
  const { reports } = useSiteCareReads(ws);
  const [note, setNote] = useState<string | null>(null);
  const runNow = async () => {
    if (!reports.data) return;
    try {
      const out = await call(postAdminCareReportsRun, { body: { month: reports.data.currentMonth } });
      setNote(`${out.written} written, ${out.skipped} already there.`);
      await reports.reload();
    } catch (err) {
      setNote(errorMessage(err));
    }
  };
  const list = reports.data?.reports ?? [];
  return (
    <div className="mt-5 border-t border-line pt-4">
      <h3 className="font-semibold text-white">Monthly care reports</h3>
      {list.length === 0 ? (
        <p className="mt-1 text-sm text-muted">The first report comes on the 1st of next month.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-1 text-sm" data-testid="care-reports">
          {list.map((r) => (
            <li key={`${r.month}-${r.partial}`}>
              <Link className="text-accent-soft underline" to={careReportPath(ws, r.month, r.partial)}>
                {formatMonth(r.month)}
                {r.partial ? ' (so far)' : ''}
              </Link>{' '}
              <span className="text-muted">
                · {r.uptime === null ? 'not checked' : `${r.uptime.toFixed(2)} % uptime`} · {r.incidents} incident
                {r.incidents === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ul>
      )}
      {ws.side === 'agency' && owner && (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <Button variant="secondary" onClick={runNow}>
            Write this month’s reports so far
          </Button>
          {note && (
            <span role="status" className="text-sm text-muted">
              {note}
            </span>
          )}
        </div>
      )}
    </div>
  );
}
