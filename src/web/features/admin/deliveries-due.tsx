import { Link } from 'react-router';
import type { OverviewResponse } from '../../../contract/admin-overview.ts';
import { Card } from '../../components/back-office/admin-ui.tsx';
import { shortDay } from '../../components/back-office/format.ts';
import { PersonLabel } from '../../components/back-office/person.tsx';

// The founder's overview lists the orders whose delivery is overdue and those due
// within 7 days (the server picks them: ordersOverdue, ordersDueSoon), most urgent first.

type Due = OverviewResponse['ordersDueSoon'][number];

/** "3 days left", "due today", "2 days overdue". */
export function daysLeftLabel(days: number): string {
  if (days === 0) return 'due today';
  if (days < 0) return `${-days} day${days === -1 ? '' : 's'} overdue`;
  return `${days} day${days === 1 ? '' : 's'} left`;
}

function DueList({ label, orders, tone }: { label: string; orders: Due[]; tone: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <h3 className="text-sm font-semibold text-white">{label}</h3>
      {orders.length === 0 ? (
        <p className="text-sm text-muted">None.</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {orders.map((o) => (
            <li key={o.orderId} className="flex flex-wrap items-baseline gap-x-2">
              <Link to={`/admin/orders/${encodeURIComponent(o.orderId)}`} className="font-mono text-accent-soft hover:underline">
                {o.orderId}
              </Link>
              <span className="min-w-0 wrap-anywhere text-ink">
                <PersonLabel name={o.customerName} email={o.customerEmail} />
              </span>
              <span className={tone}>
                {shortDay(o.dueDate)} · {daysLeftLabel(o.daysLeft)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function DeliveriesDue({ data }: { data: OverviewResponse }) {
  return (
    <Card title="Deliveries">
      <div className="grid gap-4 md:grid-cols-2" data-testid="deliveries-due">
        <DueList label="Overdue" orders={data.ordersOverdue} tone="text-danger" />
        <DueList label="Due within 7 days" orders={data.ordersDueSoon} tone="text-glow-yellow" />
      </div>
    </Card>
  );
}
