import { SiteMailsSwitch } from '../site-care/index.ts';
import { Link } from 'react-router';
import { formatMoney } from '../../../domain/money.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { UnreadMessagesLink } from '../workspace/index.ts';
import { supportLine } from '../support/index.ts';
import { useOrderActions } from '../../lib/order-actions.ts';
import { WaitingLine } from './waiting-line.tsx';
import { formatWhen } from '../../../domain/when.ts';
import { getOrderGetAllOrdersUser } from '../../../contract/orders.ts';

const badge = (isPaid: boolean) =>
  `inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${isPaid ? 'bg-success-strong text-white' : 'bg-amber-300 text-black'}`;

/** The dashboard's My Orders (spec §2): order id, date, total, advance and remaining — real states. */
export function MyOrdersTab() {
  const read = useOperation(getOrderGetAllOrdersUser, {});
  const orders = read.data?.orders ?? null;
  const error = read.data ? null : read.error;
  const actions = useOrderActions();
  const actionsOf = (orderId: string) => actions?.orders.find((a) => a.orderId === orderId);

  if (error)
    return (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p className="text-danger">Your orders could not be loaded. {error}</p>
        <Button
          variant="secondary"
          // A failed load (network, a restart) can be tried again without a reload.
          onClick={() => void read.reload()}
        >
          Retry
        </Button>
      </div>
    );
  if (!orders) return <Spinner label="Loading your orders" />;
  if (orders.length === 0) {
    return (
      <div className="flex flex-col items-start gap-4">
        <p className="text-muted">You have no orders yet.</p>
        <Link to="/pricing" className={buttonClass('secondary')}>
          See pricing
        </Link>
      </div>
    );
  }
  return (
    <>
      {/* Phones: one card per order, every column readable without scrolling sideways. */}
      <ul className="flex flex-col gap-3 sm:hidden" aria-label="Your orders" data-testid="orders-cards">
        {orders.map((o) => (
          <li key={o.order_id} className="rounded-2xl border border-line bg-page p-4">
            <Link
              to={`/status/${encodeURIComponent(o.order_id)}`}
              state={{ orderId: o.order_id, totalAmount: o.total_amount }}
              className="whitespace-nowrap font-mono text-accent-soft underline underline-offset-2"
            >
              {o.order_id}
            </Link>
            <UnreadMessagesLink to={`/status/${encodeURIComponent(o.order_id)}`} count={o.unreadMessages} />
            {o.cancelledAt && (
              <p className="mt-1 text-sm font-semibold text-danger" data-testid="order-cancelled">
                Cancelled
              </p>
            )}
            <WaitingLine actions={actionsOf(o.order_id)} />
            <p className="mt-1 text-sm text-muted">{formatWhen(o.createdAt)}</p>
            {o.supportUntil && (
              <p className="mt-1 text-sm text-ink" data-testid="order-support">
                {supportLine(o.supportUntil)}
              </p>
            )}
            {o.supportUntil && <SiteMailsSwitch orderId={o.order_id} />}
            <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
              <div>
                <dt className="text-muted">Total</dt>
                <dd className="tabular-nums text-ink">{formatMoney(o.total, o)}</dd>
              </div>
              <div>
                <dt className="text-muted">Advance</dt>
                <dd>
                  <span className={badge(o.advance_status === 'Paid')}>{o.advance_status}</span>
                </dd>
              </div>
              <div>
                <dt className="text-muted">Remaining</dt>
                <dd>
                  <span className={badge(o.remaining_status === 'Paid')}>{o.remaining_status}</span>
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-2xl border border-line sm:block">
        <table className="w-full min-w-[560px] text-left text-sm" data-testid="orders-table">
          <caption className="sr-only">Your orders</caption>
          <thead className="bg-card text-muted">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">
                Order ID
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Date
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Total
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Advance
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Remaining
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {orders.map((o) => (
              <tr key={o.order_id} className="bg-page">
                <td className="px-4 py-3">
                  <Link
                    to={`/status/${encodeURIComponent(o.order_id)}`}
                    state={{ orderId: o.order_id, totalAmount: o.total_amount }}
                    className="whitespace-nowrap font-mono text-accent-soft underline-offset-2 hover:underline"
                  >
                    {o.order_id}
                  </Link>
                  <div>
                    <UnreadMessagesLink to={`/status/${encodeURIComponent(o.order_id)}`} count={o.unreadMessages} />
                  </div>
                  {o.cancelledAt && (
                    <div className="mt-1 text-xs font-semibold text-danger" data-testid="order-cancelled">
                      Cancelled
                    </div>
                  )}
                  <WaitingLine actions={actionsOf(o.order_id)} />
                  {o.supportUntil && (
                    <div className="mt-1 text-xs text-muted" data-testid="order-support">
                      {supportLine(o.supportUntil)}
                    </div>
                  )}
                  {o.supportUntil && <SiteMailsSwitch orderId={o.order_id} />}
                </td>
                <td className="px-4 py-3 text-ink">{formatWhen(o.createdAt)}</td>
                <td className="px-4 py-3 tabular-nums text-ink">{formatMoney(o.total, o)}</td>
                <td className="px-4 py-3">
                  <span className={badge(o.advance_status === 'Paid')}>{o.advance_status}</span>
                </td>
                <td className="px-4 py-3">
                  <span className={badge(o.remaining_status === 'Paid')}>{o.remaining_status}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
