import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { STAGES } from '../../../domain/tracker.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField, inputClass } from '../../components/ui/text-field.tsx';
import { Badge, Loadable, PageHeader, Pagination, Table, td, wrapCell } from '../../components/back-office/admin-ui.tsx';
import { daysLeftLabel } from './deliveries-due.tsx';
import { UnreadMessagesLink } from '../workspace/index.ts';
import { InstallmentBadge } from './installment-badge.tsx';
import { formatMinor, formatWhen, shortDay } from '../../components/back-office/format.ts';
import { Person } from '../../components/back-office/person.tsx';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminOrders } from '../../../contract/admin-orders.ts';

export default function OrdersPage() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [stage, setStage] = useState('');
  const { data, error, loading } = useOperation(getAdminOrders, {
    query: { page, q: search || undefined, stage: stage ? Number(stage) : undefined },
  });
  const withTotals = data?.items.some((o) => o.total !== undefined) ?? false;

  function submit(e: FormEvent) {
    e.preventDefault();
    setSearch(q.trim());
    setPage(1);
  }

  return (
    <>
      <PageHeader title="Orders" />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <form onSubmit={submit} role="search" className="flex min-w-64 max-w-xl flex-1 items-end gap-3">
          <div className="flex-1">
            <TextField
              label="Search by order id, e-mail or name"
              type="search"
              value={q}
              maxLength={200}
              onChange={(e) => setQ(e.target.value)}
            />
          </div>
          <Button type="submit">Search</Button>
        </form>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink">
          Latest stage
          <select
            className={inputClass}
            value={stage}
            onChange={(e) => {
              setStage(e.target.value);
              setPage(1);
            }}
          >
            <option value="">Any stage</option>
            {STAGES.map((name, i) => (
              <option key={name} value={i + 1}>
                {i + 1}. {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <>
            {/* Totals are the owner's (decision 232): staff's answers carry none, and the column goes. */}
            <Table
              label="Orders"
              head={['Order', 'Customer', 'Date', ...(withTotals ? ['Total'] : []), 'Advance (20%)', 'Remaining (80%)', 'Stage']}
            >
              {data.items.map((o) => (
                <tr key={o.id}>
                  <td className={td}>
                    <Link to={`/admin/orders/${encodeURIComponent(o.id)}`} className="font-mono text-accent-soft hover:underline">
                      {o.id}
                    </Link>
                    <div>
                      <UnreadMessagesLink to={`/admin/orders/${encodeURIComponent(o.id)}`} count={o.unreadMessages} />
                    </div>
                  </td>
                  <td className={`${td} ${wrapCell}`}>
                    <Person name={o.customerName} email={o.customerEmail} />
                  </td>
                  <td className={`${td} min-w-[7rem]`}>{formatWhen(o.createdAt)}</td>
                  {withTotals && (
                    <td className={`${td} whitespace-nowrap`}>
                      {o.total !== undefined && o.currency ? formatMinor(o.total, o.currency) : '—'}
                    </td>
                  )}
                  <td className={td}>
                    <InstallmentBadge amount={o.advance.amount} currency={o.currency} state={o.advance.state} />
                  </td>
                  <td className={td}>
                    <InstallmentBadge
                      amount={o.remaining.amount}
                      currency={o.currency}
                      state={o.remaining.state}
                      cancelled={o.state === 'cancelled'}
                    />
                  </td>
                  <td className={td}>
                    {o.completedStages}/15
                    <div className="text-xs text-muted">{STAGES[o.completedStages - 1] ?? '—'}</div>
                    {o.briefPending && <Badge tone="warn">Brief pending</Badge>}
                    {o.dueDate && o.daysLeft !== null && (
                      <div
                        className={`text-xs ${o.daysLeft < 0 ? 'text-danger' : o.daysLeft <= 7 ? 'text-glow-yellow' : 'text-muted'}`}
                        data-testid="days-left"
                      >
                        Due {shortDay(o.dueDate)} · {daysLeftLabel(o.daysLeft)}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            {data.items.length === 0 && <p className="mt-3 text-muted">No orders match.</p>}
            <Pagination info={data.pageInfo} onPage={setPage} />
          </>
        )}
      </Loadable>
    </>
  );
}
