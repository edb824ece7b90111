import { Fragment, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Card, ErrorText, Loadable, Notice, PageHeader, Table, td } from '../../components/back-office/admin-ui.tsx';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';
import { InstallmentBadge } from './installment-badge.tsx';
import { OrderNotes } from './order-notes.tsx';
import { OrderInvoices } from '../invoices/index.ts';
import { OrderReminders } from '../reminders/index.ts';
import { RefundPanel } from './refund-panel.tsx';
import { CancelPanel } from './cancel-panel.tsx';
import { StageTracker } from './stage-tracker.tsx';
import { OrderWorkspace, usePreloadOrderTab, type WorkspaceTab } from '../order-page/index.ts';
import { getAdminActions, type AdminActionsResponse, type AgencyWaitingKind } from '../../../contract/actions.ts';
import { formatDeliveredOn, formatDueDate } from '../../../domain/delivery-date.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import { useCanSee } from '../../components/back-office/owner-only.tsx';
import { DeletedPerson, Email, isDeletedPerson } from '../../components/back-office/person.tsx';
import { AdminChanges } from '../changes/index.ts';
import { AcceptedTermsLine } from '../terms/index.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminOrdersById } from '../../../contract/admin-orders.ts';
import type { PriceLineDto } from '../../../contract/pricing.ts';

/** Where each kind of the action inbox is acted on (unread messages have the Messages tab's own count). */
const AGENCY_TAB: Record<AgencyWaitingKind, WorkspaceTab | null> = {
  brief_submitted: 'brief',
  customer_files: 'files',
  changes_requested: 'reviews',
  // A change request waits for our quote on the Progress tab (docs/decisions/260-change-events-and-waiting.md).
  change_requested: 'progress',
  unread_messages: null,
  support_overdue: 'support',
  // docs/decisions/330-agency-inbox-kinds.md
  support_open: 'support',
  pins: 'reviews',
};

function waitingByTab(actions: AdminActionsResponse | null, orderId: string): Partial<Record<WorkspaceTab, number>> {
  const byTab: Partial<Record<WorkspaceTab, number>> = {};
  for (const item of actions?.items ?? []) {
    const tab = AGENCY_TAB[item.kind];
    if (item.orderId === orderId && tab) byTab[tab] = (byTab[tab] ?? 0) + item.count;
  }
  return byTab;
}

export default function OrderPage() {
  const { id = '' } = useParams();
  const { data, error, loading, reload } = useOperation(getAdminOrdersById, { params: { id } });
  // What waits for the agency on this order, as badges on its tabs: the order's share of the
  // action inbox (docs/decisions/278-admin-order-tab-badges.md), read again after each tab change.
  const actions = useOperation(getAdminActions, {});
  usePreloadOrderTab();
  const agencyWaiting = waitingByTab(actions.data, id);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  // A flash belongs to the tab it was said on: switching tabs takes it away.
  const tab = useSearchParams()[0].get('tab');
  useEffect(() => {
    setNotice(null);
    setActionError(null);
  }, [tab]);
  // Staff work on the order; refunds, invoices and the customer's own page are the owner's.
  const owner = { refunds: useCanSee('refunds'), invoices: useCanSee('invoices'), customers: useCanSee('customers') };
  const withPaymentDetails = data?.installments.some((i) => i.attempts !== undefined) ?? false;
  const done = async (message: string | null, err: string | null) => {
    setNotice(err ? null : message);
    setActionError(err);
    if (!err) await reload();
  };
  // Once delivered the due date is history: both sides say when it was delivered instead.
  const deliveredAt = data?.stages.find((s) => s.stage === DELIVERY_STAGE)?.completedAt ?? null;
  const cancelled = data?.order.state === 'cancelled';

  return (
    <>
      <PageHeader title={`Order ${id}`}>
        <Link to="/admin/orders" className="text-sm text-accent-soft hover:underline">
          All orders
        </Link>
      </PageHeader>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <div className="flex flex-col gap-6">
            {notice && <Notice>{notice}</Notice>}
            {actionError && <ErrorText>{actionError}</ErrorText>}
            {deliveredAt ? (
              <p className="text-sm text-ink" data-testid="admin-delivered-on">
                Delivered on {formatDeliveredOn(deliveredAt)}
              </p>
            ) : (
              !cancelled &&
              data.order.dueDate && (
                <p className="text-sm text-ink" data-testid="admin-due-date">
                  Due {formatDueDate(data.order.dueDate)}
                  {data.order.daysLeft !== null &&
                    ` · ${data.order.daysLeft < 0 ? `${-data.order.daysLeft} days overdue` : `${data.order.daysLeft} days left`}`}
                </p>
              )
            )}
            {/* The order's workspace; Progress is what this page showed before. */}
            <OrderWorkspace
              side="agency"
              orderId={id}
              unreadMessages={data.order.unreadMessages}
              agencyWaiting={agencyWaiting}
              onTabChange={() => void actions.reload()}
              progress={
                <div className="flex flex-col gap-6">
                  {owner.refunds && (
                    <RefundPanel orderId={id} attempts={data.installments.flatMap((i) => i.attempts ?? [])} onDone={done} />
                  )}
                  {/* Cancel and refunds (docs/decisions/321-cancel-and-refund.md); staff see the state only. */}
                  {owner.refunds ? (
                    <CancelPanel part="status" orderId={id} refreshKey={data} onDone={done} />
                  ) : (
                    cancelled && (
                      <p
                        className="rounded-xl border border-danger/60 bg-danger/10 px-4 py-3 text-sm text-ink"
                        data-testid="order-cancelled"
                      >
                        This order is cancelled.
                      </p>
                    )
                  )}
                  <div className="grid gap-6 lg:grid-cols-2">
                    <Card title="Customer">
                      {isDeletedPerson(data.customer.email) ? (
                        <p>
                          <DeletedPerson to={owner.customers ? `/admin/customers/${data.customer.id}` : undefined} />
                        </p>
                      ) : (
                        <>
                          <p className="break-words">
                            {/* Staff work on the order; the customer's page (all their data) is the owner's. */}
                            {owner.customers ? (
                              <Link to={`/admin/customers/${data.customer.id}`} className="break-all text-accent-soft hover:underline">
                                {data.customer.name ?? data.customer.email}
                              </Link>
                            ) : (
                              <span className="break-all text-white">{data.customer.name ?? data.customer.email}</span>
                            )}
                          </p>
                          <p className="text-sm text-muted">
                            <Email value={data.customer.email} />
                          </p>
                        </>
                      )}
                      {data.customer.phoneNumber && (
                        <p className="text-sm text-muted">
                          +{(data.customer.phoneCode ?? '').replace(/^\+/, '')} {data.customer.phoneNumber}
                        </p>
                      )}
                      <p className="mt-2 text-sm text-muted">Ordered {formatWhen(data.order.createdAt)}</p>
                      {data.order.source && <p className="break-all text-sm text-muted">Source: {data.order.source}</p>}
                      {data.termsAcceptance && (
                        <AcceptedTermsLine
                          version={data.termsAcceptance.version}
                          acceptedAt={data.termsAcceptance.acceptedAt}
                          label="Read the accepted terms"
                        />
                      )}
                    </Card>
                    {/* The price and the payments' details are the owner's (decision 232): staff's answers carry none. */}
                    {data.order.total !== undefined && data.order.currency && data.order.lines && (
                      <PriceCard lines={data.order.lines} charged={data.order.total} currency={data.order.currency} />
                    )}
                  </div>
                  <Card title="Payments">
                    <Table
                      label="Payments"
                      head={
                        withPaymentDetails
                          ? ['Installment', 'Amount', 'Paid at', 'Payment id', 'Checkout attempts']
                          : ['Installment', 'State', 'Paid at']
                      }
                    >
                      {data.installments.map((i) => (
                        <tr key={i.kind}>
                          <td className={td}>{i.kind === 'advance' ? 'Advance (20%)' : 'Remaining (80%)'}</td>
                          <td className={td}>
                            <InstallmentBadge amount={i.amount} currency={i.currency} state={i.state} cancelled={cancelled} />
                          </td>
                          <td className={`${td} min-w-[7rem]`}>{formatWhen(i.paidAt)}</td>
                          {withPaymentDetails && <td className={`${td} font-mono text-xs break-all`}>{i.providerPaymentId ?? '—'}</td>}
                          {withPaymentDetails && (
                            <td className={`${td} text-xs`}>
                              {!i.attempts?.length
                                ? '—'
                                : i.attempts.map((a) => (
                                    <div key={a.providerOrderId} className="break-all">
                                      <span className="font-mono">{a.providerOrderId}</span> · {a.provider} · {a.state}
                                      {a.refundState === 'needed'
                                        ? ' · refund needed'
                                        : a.refundState === 'refunded'
                                          ? ' · refunded'
                                          : ''}{' '}
                                      · {formatWhen(a.createdAt)}
                                    </div>
                                  ))}
                            </td>
                          )}
                        </tr>
                      ))}
                    </Table>
                  </Card>
                  {owner.invoices && (
                    <Card title="Invoices">
                      <OrderInvoices orderId={id} admin refreshKey={data} />
                    </Card>
                  )}
                  <AdminChanges orderId={id} currency={data.order.currency ?? ''} cancelled={cancelled} />
                  <OrderReminders orderId={id} />
                  <StageTracker
                    orderId={id}
                    stages={data.stages}
                    completed={data.order.completedStages}
                    remainingPaid={data.order.remaining.state === 'paid'}
                    hasDeliveryLink={Boolean(data.order.deliveryUrl)}
                    briefPending={data.order.briefPending}
                    cancelled={cancelled}
                    onDone={done}
                  />
                  <OrderNotes
                    orderId={id}
                    deliveryUrl={data.order.deliveryUrl}
                    internalNote={data.order.internalNote}
                    delivered={data.order.completedStages >= 15}
                    onDone={done}
                  />
                  {owner.refunds && <CancelPanel part="form" orderId={id} refreshKey={data} onDone={done} />}
                </div>
              }
            />
          </div>
        )}
      </Loadable>
    </>
  );
}

/**
 * The order's price in the words of its quote and documents (src/domain/price-lines.ts), then what
 * changes and extras added: the account's charge in all, so the card adds up to the Payments tab.
 */
function PriceCard({ lines, charged, currency }: { lines: PriceLineDto[]; charged: number; currency: string }) {
  const orderTotal = lines.find((l) => l.key === 'total')?.amount ?? charged;
  const signed = (minor: number) => (minor < 0 ? `−${formatMinor(-minor, currency)}` : formatMinor(minor, currency));
  const row = (label: string, amount: number, strong = false, testId?: string) => (
    <Fragment key={`${label}-${testId ?? ''}`}>
      <dt className={strong ? 'font-semibold text-white' : 'text-muted'}>{label}</dt>
      <dd className={`text-right ${strong ? 'font-semibold text-white' : ''}`} data-testid={testId}>
        {signed(amount)}
      </dd>
    </Fragment>
  );
  return (
    <Card title="Price">
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" data-testid="admin-price-lines">
        {lines.map((l) => row(l.label, l.amount, l.key === 'total', l.key === 'total' ? 'admin-order-total' : undefined))}
        {charged !== orderTotal && (
          <>
            {row('Changes and extras', charged - orderTotal, false, 'admin-changes-total')}
            {row('Charged in all', charged, true, 'admin-charged-total')}
          </>
        )}
      </dl>
    </Card>
  );
}
