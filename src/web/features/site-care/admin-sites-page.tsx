import { Link } from 'react-router';
import { getAdminSites, type AdminSite } from '../../../contract/site-care.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { Badge, Card, Loadable, PageHeader, Table, td, wrapCell } from '../../components/back-office/admin-ui.tsx';
import { CAUSE_LABELS, STATUS_LABELS, ago, incidentLength } from './site-care-api.ts';

// /admin/sites (docs/decisions/329-site-care-screens.md): every watched site on one page, worst
// first — down, then certificate and domain warnings, then the rest (the server's order).

function StatusBadge({ site }: { site: AdminSite }) {
  if (!site.watching) return <Badge>Not watched</Badge>;
  if (site.status === 'down') return <Badge tone="warn">▼ Down</Badge>;
  if (site.status === 'up') return <Badge tone="good">▲ Up</Badge>;
  return <Badge>○ {STATUS_LABELS.unknown}</Badge>;
}

const days = (d: { daysLeft: number } | null, warnAt: number) => (d === null ? '—' : `${d.daysLeft} d${d.daysLeft <= warnAt ? ' ⚠' : ''}`);

export default function AdminSitesPage() {
  const sites = useOperation(getAdminSites, {});
  const list = sites.data?.sites ?? [];
  const down = list.filter((s) => s.watching && s.status === 'down').length;
  return (
    <div>
      <PageHeader title="Watched sites">
        <p className="text-sm text-muted" role="status">
          {sites.data ? `${list.length} watched · ${down} down` : ''}
        </p>
      </PageHeader>
      <Loadable loading={!sites.data} error={sites.error}>
        {list.length === 0 ? (
          <Card>
            <p className="text-ink">No site is watched yet: a delivered order watches its link.</p>
          </Card>
        ) : (
          <Table
            label="Watched sites, worst first"
            head={['Status', 'Site', 'Order', '30-day uptime', 'Certificate', 'Domain', 'Last incident']}
          >
            {list.map((s) => {
              const last = s.incidents[0];
              return (
                <tr key={s.id} data-testid="admin-site">
                  <td className={td}>
                    <StatusBadge site={s} />
                    {s.checkedAt && <div className="mt-1 text-xs text-muted">checked {ago(s.checkedAt)}</div>}
                  </td>
                  <td className={`${td} ${wrapCell} break-all`}>{s.url}</td>
                  <td className={`${td} ${wrapCell}`}>
                    <Link to={`/admin/orders/${s.orderId}?tab=support`} className="font-mono text-accent-soft underline">
                      {s.orderId}
                    </Link>
                    {s.customerName && <div className="text-xs text-muted">{s.customerName}</div>}
                  </td>
                  <td className={td}>{s.uptime30d === null ? '—' : `${s.uptime30d.toFixed(2)} %`}</td>
                  <td className={td}>{days(s.certificate, 21)}</td>
                  <td className={td}>{days(s.domain, 30)}</td>
                  <td className={td}>{last ? `${incidentLength(last)} · ${CAUSE_LABELS[last.cause]}` : 'none'}</td>
                </tr>
              );
            })}
          </Table>
        )}
      </Loadable>
    </div>
  );
}
