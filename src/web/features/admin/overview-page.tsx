import { Link } from 'react-router';
import type { OverviewResponse } from '../../../contract/admin-overview.ts';
import { STAGES } from '../../../domain/tracker.ts';
import { Card, Loadable, PageHeader } from '../../components/back-office/admin-ui.tsx';
import { DailyBarChart, HorizontalBarChart } from '../../components/back-office/charts.tsx';
import { formatMinor } from '../../components/back-office/format.ts';
import { OverviewAlerts } from './overview-alerts.tsx';
import { PlansWithoutGst } from './plans-without-gst.tsx';
import { DeliveriesDue } from './deliveries-due.tsx';
import { ActionInbox, RatingsSummary } from './action-inbox.tsx';
import { useCanSee } from '../../components/back-office/owner-only.tsx';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminOverview } from '../../../contract/admin-overview.ts';
import { formatWait } from '../../../domain/business-hours.ts';

const REVENUE_COLORS = ['#8b5cf6', '#14b8a6', '#ec4899', '#eab308', '#22c55e'];

function Stat({ label, value, to }: { label: string; value: string | number; to?: string }) {
  const body = (
    <>
      <span className="text-sm text-muted">{label}</span>
      <span className="text-2xl font-bold text-white">{value}</span>
    </>
  );
  const cls = 'flex flex-col gap-1 rounded-2xl border border-line bg-card p-4';
  return to ? (
    <Link to={to} className={`${cls} hover:border-accent`}>
      {body}
    </Link>
  ) : (
    <div className={cls}>{body}</div>
  );
}

export default function OverviewPage() {
  const { data, error, loading, reload } = useOperation(getAdminOverview, {});
  return (
    <>
      <PageHeader title="Overview" />
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <div className="flex flex-col gap-6">
            <OverviewAlerts data={data} onChange={reload} />
            <PlansWithoutGst plans={data.maintenance.withoutGst ?? []} onChange={reload} />
            <ActionInbox />
            <DeliveriesDue data={data} />
            <RatingsSummary />
            <Overview data={data} />
          </div>
        )}
      </Loadable>
    </>
  );
}

function Overview({ data }: { data: OverviewResponse }) {
  // Money received and owed is the owner's; staff get the queue they work on.
  const money = useCanSee('revenue');
  const owed = (data.cashbackOwed ?? []).map((c) => formatMinor(c.amountMinor, c.currency)).join(' · ') || '0';
  const inProgress = data.ordersByStage.filter((s) => s.stage < 15).reduce((a, s) => a + s.count, 0);
  return (
    <div className="flex flex-col gap-6">
      <div className={`grid grid-cols-2 gap-3 ${money ? 'lg:grid-cols-4' : 'lg:grid-cols-3'}`}>
        <Stat label="Orders in progress" value={inProgress} to="/admin/orders" />
        <Stat label="New leads and messages" value={data.newLeads + data.newContacts} to="/admin/leads" />
        <Stat
          label="Open chats"
          value={data.unreadChats ? `${data.openChats} (${data.unreadChats} unread)` : data.openChats}
          to="/adminChat"
        />
        {data.chatFirstResponseMedianSeconds !== undefined && (
          <Stat
            label="Chat first response (median, 30 days)"
            value={data.chatFirstResponseMedianSeconds === null ? '—' : formatWait(data.chatFirstResponseMedianSeconds)}
            to="/adminChat"
          />
        )}
        {money && <Stat label="Cashback owed" value={owed} to="/admin/cashback" />}
      </div>
      {money && <Revenue data={data} />}
      <div className="grid gap-6 xl:grid-cols-2">
        <Card title="Orders by tracker stage">
          <HorizontalBarChart
            title="Orders whose latest completed stage is…"
            rows={data.ordersByStage.map((s) => ({ label: `${s.stage}. ${STAGES[s.stage - 1] ?? ''}`, value: s.count }))}
          />
        </Card>
        <Card title="New leads and contact messages per day">
          <DailyBarChart
            title="Last 30 days"
            days={data.days}
            series={[
              { label: 'Leads', values: data.leadsPerDay, color: '#8b5cf6' },
              { label: 'Contact messages', values: data.contactsPerDay, color: '#14b8a6' },
            ]}
            format={(n) => String(Math.round(n))}
            integer
          />
        </Card>
      </div>
    </div>
  );
}

/** Money kept, per currency and in INR, from the order accounts: the owner's (docs/decisions/320-order-ledger.md). */
function Revenue({ data }: { data: OverviewResponse }) {
  const revenue = data.revenue ?? [];
  const moved = data.moneyMoved;
  const left = moved?.testLeftOut;
  return (
    <Card title="Revenue received, last 30 days">
      {moved && moved.perCurrency.length > 0 && (
        <dl className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="money-moved">
          {moved.perCurrency.map((c) => (
            <div key={c.currency} className="rounded-lg border border-line p-3" data-testid={`money-moved-${c.currency}`}>
              <dt className="text-sm text-muted">{c.currency}</dt>
              <dd className="text-sm">
                Received {formatMinor(c.received, c.currency)}
                <br />
                Refunded {formatMinor(c.refunded, c.currency)}
                <br />
                <strong className="text-white" data-testid={`net-${c.currency}`}>
                  Net {formatMinor(c.net, c.currency)}
                </strong>
              </dd>
            </div>
          ))}
          {moved.perCurrency.some((c) => c.currency !== 'INR') && (
            <div className="rounded-lg border border-line p-3">
              <dt className="text-sm text-muted">All in INR</dt>
              <dd className="text-sm">
                <strong className="text-white" data-testid="net-inr">
                  Net {formatMinor(moved.inr.net, 'INR')}
                </strong>
              </dd>
            </div>
          )}
        </dl>
      )}
      {revenue.length === 0 ? (
        <p className="text-muted">No payments received in the last 30 days.</p>
      ) : (
        <div className="flex flex-col gap-6">
          {revenue.map((r, i) => (
            <DailyBarChart
              key={r.currency}
              title={`${r.currency} — ${formatMinor(r.total, r.currency)} kept in 30 days (received less refunded)`}
              days={data.days}
              series={[{ label: r.currency, values: r.perDay, color: REVENUE_COLORS[i % REVENUE_COLORS.length]! }]}
              format={(n) => formatMinor(Math.round(n), r.currency)}
            />
          ))}
        </div>
      )}
      {left && left.payments + left.refunds > 0 && (
        <p className="mt-3 text-sm text-muted" data-testid="test-money-left-out">
          Left out: {left.payments} test-mode payment{left.payments === 1 ? '' : 's'}
          {left.refunds > 0 ? ` and ${left.refunds} test refund${left.refunds === 1 ? '' : 's'}` : ''} (
          {left.perCurrency.map((c) => formatMinor(c.received, c.currency)).join(', ')}): no money moved.
        </p>
      )}
      {data.tax.testDocuments > 0 && (
        <p className="mt-1 text-sm text-muted" data-testid="test-documents-left-out">
          Left out of the turnover and the tax return: {data.tax.testDocuments} test document{data.tax.testDocuments === 1 ? '' : 's'} of{' '}
          {data.tax.financialYear} (test-mode payments: no tax is due).
        </p>
      )}
    </Card>
  );
}
