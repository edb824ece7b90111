import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { StatusResponse } from '../../contract/tracker.ts';
import { formatMoney } from '../../domain/money.ts';
import { formatDeliveredOn, formatDueDate } from '../../domain/delivery-date.ts';
import { useOperation, useReloadOn } from '../lib/use-operation.ts';
import { tokenStore } from '../lib/api.ts';
import { useSession } from '../lib/session.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { Button, buttonClass } from '../components/ui/button.tsx';
import { OrderTracker } from '../features/orders/order-tracker.tsx';
import { rememberReturnTo } from '../features/auth/auth-state.ts';
import { OrderInvoices } from '../features/invoices/order-invoices.tsx';
import { OrderWorkspace, usePreloadOrderTab } from '../features/order-page/order-workspace.tsx';
import { ChangesPanel } from '../features/changes/changes-panel.tsx';
import { OrderAcceptedTerms } from '../features/terms/accepted-terms.tsx';
import { getStatusGetStatusOrderById } from '../../contract/tracker.ts';
import { useInstallableApp } from '../features/notifications/install.ts';

/**
 * Spec §2 "Order status": the 15-step tracker and 'Pay remaining'; logged out → /login. Once the
 * advance is paid the page is the order's workspace: Progress (the tracker and
 * payments), Brief, Files, Reviews, Messages as tabs.
 */
export default function StatusPage() {
  const { id = '' } = useParams();
  const session = useSession();
  useInstallableApp();
  const navigate = useNavigate();
  // With a stored token the order is read beside the session's check, not after it (a refused token
  // answers 401: to /login, below); without one the session sends the visitor to /login.
  const signedIn = (session.loading && tokenStore.get() !== null) || session.isLoggedIn;
  const read = useOperation(getStatusGetStatusOrderById, signedIn ? { params: { id } } : null);
  usePreloadOrderTab();
  const status: StatusResponse | null = read.data;
  // Spec §8: a failed status fetch goes to /login (below); an order that is not yours is "not found".
  const error = read.status === 401 ? null : read.error;
  // Read again when the tab changes: an approval in Reviews completes a stage and sets the due date.
  const tab = useSearchParams()[0].get('tab');
  useReloadOn(tab, read.reload);
  // Arriving from the remaining payment (/pay): a confirmation at the top, in view and announced.
  const paidKind = (useLocation().state as { justPaid?: string } | null)?.justPaid;
  const justPaid = paidKind === 'remaining';
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (justPaid && status) confirmation.current?.focus();
  }, [justPaid, status]);

  useEffect(() => {
    if (session.loading) return;
    if (!session.isLoggedIn) {
      rememberReturnTo(`/status/${encodeURIComponent(id)}`);
      navigate('/login', { replace: true });
      return;
    }
    if (read.status === 401) navigate('/login', { replace: true });
  }, [id, session.loading, session.isLoggedIn, navigate, read.status]);

  const money = (minor: number) => (status ? formatMoney(minor, status) : '');
  // A cancelled order owes nothing more and takes no payment (docs/decisions/321-cancel-and-refund.md).
  const cancelled = Boolean(status?.cancelledAt);
  const canPayRemaining = status && !cancelled && status.advance.state === 'paid' && status.remaining.state !== 'paid';

  return (
    <section className="mx-auto flex min-h-screen max-w-6xl flex-col gap-8 px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to="/dashboard" className="text-sm text-muted hover:text-white">
          ← Dashboard
        </Link>
      </div>
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold text-white sm:text-4xl">Order status</h1>
        <p className="break-words text-muted">
          Order{' '}
          <span className="whitespace-nowrap font-mono text-ink" data-testid="order-id">
            {id}
          </span>
          {status && (
            <>
              {' '}
              · Total <span className="text-ink">{money(status.total)}</span>
            </>
          )}
        </p>
        {status?.cancelledAt ? (
          <p className="font-semibold text-danger" data-testid="order-cancelled">
            Cancelled on {formatDeliveredOn(status.cancelledAt)}. Nothing more is due; any refund and its documents are e-mailed to you.
          </p>
        ) : status?.deliveredAt ? (
          <p className="text-ink" data-testid="delivered-on">
            Delivered on <span className="font-semibold text-white">{formatDeliveredOn(status.deliveredAt)}</span>
          </p>
        ) : (
          status?.dueDate && (
            <p className="text-ink" data-testid="estimated-delivery">
              Estimated delivery: <span className="font-semibold text-white">{formatDueDate(status.dueDate)}</span>
            </p>
          )
        )}
      </header>
      {justPaid && status?.remaining.state === 'paid' && (
        <div
          ref={confirmation}
          tabIndex={-1}
          role="status"
          className="flex flex-col gap-1 rounded-2xl border border-success/40 bg-card p-5 outline-none sm:p-6"
          data-testid="remaining-paid"
        >
          <h2 className="text-xl font-semibold text-white">Payment received — thank you!</h2>
          <p className="text-ink">
            Your order is fully paid ({money(status.total)}). A receipt with your invoice is on its way to your inbox
            {status.deliveryUrl
              ? '; your website is ready below.'
              : ', and your website link appears on this page as soon as it is delivered.'}
          </p>
        </div>
      )}
      {paidKind === 'change' && status && (
        <div role="status" className="rounded-2xl border border-success/40 bg-card p-5 sm:p-6" data-testid="change-paid">
          <h2 className="text-xl font-semibold text-white">Change accepted — thank you!</h2>
          <p className="text-ink">
            Your payment is received and we have started on it. A receipt with its invoice is on its way to your inbox.
          </p>
        </div>
      )}
      {error ? (
        <div role="alert" className="rounded-2xl border border-line bg-card p-6 text-ink">
          <p>{error}</p>
          <Link to="/dashboard" className="mt-3 inline-block text-accent-soft underline">
            Back to your orders
          </Link>
        </div>
      ) : !status ? (
        <Spinner label="Loading your order" />
      ) : (
        <Workspace orderId={status.order_id} paid={status.advance.state === 'paid'}>
          <div className="rounded-2xl border border-line bg-card p-5 sm:p-8">
            <OrderTracker
              orderId={status.order_id}
              lastCompleted={status.completed_steps}
              completedAt={status.completedAt}
              notes={status.notes}
            />
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <div className="rounded-2xl border border-line bg-card p-6">
              <h2 className="text-lg font-semibold text-white">Payments</h2>
              <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
                <dt className="text-muted">Advance</dt>
                <dd className="text-ink">
                  {money(status.advance.amount)} · {status.advance.state === 'paid' ? 'Paid' : 'Due'}
                </dd>
                <dt className="text-muted">Remaining</dt>
                <dd className="text-ink" data-testid="remaining">
                  {money(status.remaining.amount)} ·{' '}
                  {status.remaining.state === 'paid' ? 'Paid' : cancelled ? 'Not due (cancelled)' : 'Due'}
                </dd>
              </dl>
              <h3 className="mt-5 text-sm font-semibold text-white">Invoices</h3>
              <div className="mt-2">
                <OrderInvoices orderId={status.order_id} />
              </div>
              {status.advance.state === 'paid' && <OrderAcceptedTerms orderId={status.order_id} />}
              {canPayRemaining && (
                <>
                  {/* Spec: the remaining payment may be made at any stage; it is due before delivery. */}
                  <Button
                    data-primary-action
                    className="mt-5 w-full sm:w-auto"
                    onClick={() =>
                      navigate(`/pay?order=${encodeURIComponent(status.order_id)}`, {
                        state: { isAdvance: false, orderId: status.order_id, totalAmount: status.remainingAmount },
                      })
                    }
                  >
                    Pay remaining {money(status.remaining.amount)}
                  </Button>
                  <p className="mt-2 text-xs text-muted" data-testid="remaining-due-note">
                    You can pay it at any stage; it is due before your website is delivered.
                  </p>
                </>
              )}
            </div>
            <div className="rounded-2xl border border-line bg-card p-6">
              <h2 className="text-lg font-semibold text-white">Your website</h2>
              {status.deliveryUrl ? (
                <a
                  href={status.deliveryUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={buttonClass('primary', 'mt-4')}
                  data-testid="delivery-link"
                >
                  Open your website ↗
                </a>
              ) : (
                <p className="mt-3 text-sm text-muted">
                  {cancelled
                    ? 'This order is cancelled.'
                    : status.remaining.state === 'paid'
                      ? 'Fully paid — your website link appears here as soon as it is delivered.'
                      : 'The website link is delivered here after the remaining payment.'}
                </p>
              )}
            </div>
          </div>
          {status.advance.state === 'paid' && !cancelled && (
            <ChangesPanel
              orderId={status.order_id}
              money={{ symbol: status.symbol, minorDigits: status.minorDigits, currency: status.currency }}
              delivered={Boolean(status.deliveryUrl)}
              orderTotal={status.total}
              onPaid={() => void read.reload()}
            />
          )}
        </Workspace>
      )}
    </section>
  );
}

/** The tracker and payments alone before the advance is paid; the workspace's Progress tab after. */
function Workspace({ orderId, paid, children }: { orderId: string; paid: boolean; children: React.ReactNode }) {
  const progress = <div className="flex flex-col gap-8">{children}</div>;
  return paid ? <OrderWorkspace side="customer" orderId={orderId} progress={progress} /> : progress;
}
