import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Payout, PayoutItem } from '../../../contract/payouts.ts';
import { getAdminPayouts, getAdminPayoutsCsv, postAdminPayoutsSync } from '../../../contract/payouts.ts';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/text-field.tsx';
import { Badge, Card, ErrorText, Loadable, Notice, PageHeader, Table, td } from '../../components/back-office/admin-ui.tsx';
import { downloadCsv } from '../../components/back-office/download-csv.ts';
import { formatMinor, formatWhen, thisMonth } from '../../components/back-office/format.ts';
import { runOperation, useOperation } from '../../lib/use-operation.ts';

// Back office, owner only: Razorpay's payouts of a month, reconciled with the app's payments and
// refunds (docs/decisions/323-razorpay-settlements.md). Every figure is read from the API, which
// read it from Razorpay; nothing here is typed in.

const inr = (paise: number) => formatMinor(paise, 'INR');
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const TYPE_LABEL: Record<PayoutItem['type'], string> = { payment: 'Payment', refund: 'Refund', adjustment: 'Adjustment' };

/** An order's public id as a link to its back-office page. */
function OrderLink({ orderId }: { orderId: string | null }) {
  if (!orderId) return <span className="text-muted">—</span>;
  return (
    <Link
      to={`/admin/orders/${encodeURIComponent(orderId)}`}
      className="font-mono text-accent-soft underline underline-offset-2 hover:text-white"
    >
      {orderId}
    </Link>
  );
}

/** A payout's (or the month's) three figures: paid in, Razorpay's fees, and the GST on them. */
function Figures({ amount, fees, tax, amountLabel }: { amount: number; fees: number; tax: number; amountLabel: string }) {
  const figure = (label: ReactNode, value: number, strong = false) => (
    <div className="min-w-0">
      <dt className="text-muted">{label}</dt>
      <dd className={`tabular-nums ${strong ? 'text-lg font-semibold text-white' : 'text-ink'}`}>{inr(value)}</dd>
    </div>
  );
  return (
    <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
      {figure(amountLabel, amount, true)}
      {figure('Razorpay fees (incl. GST)', fees)}
      {figure(
        <>
          GST on fees <span className="whitespace-nowrap">— input tax credit</span>
        </>,
        tax,
      )}
    </dl>
  );
}

function PayoutCard({ payout }: { payout: Payout }) {
  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="text-lg font-semibold text-white">Payout of {formatWhen(payout.settledAt)}</h2>
        <p className="text-sm text-muted">
          UTR <span className="font-mono break-all text-ink">{payout.utr ?? '—'}</span>
        </p>
      </div>
      <p className="mb-3 text-xs text-muted">
        Razorpay settlement <span className="font-mono break-all">{payout.id}</span>
      </p>
      <Figures amount={payout.amount} fees={payout.fees} tax={payout.tax} amountLabel="Paid into the bank" />
      <div className="mt-4">
        {payout.items.length === 0 ? (
          <p className="text-sm text-muted">Razorpay listed no transactions for this payout.</p>
        ) : (
          <Table
            label={`Transactions of the payout ${payout.utr ?? payout.id}`}
            head={['Type', 'Payment', 'Order', 'Amount', 'Fee (incl. GST)', 'GST on fee']}
          >
            {payout.items.map((item, i) => (
              <tr key={`${item.type}-${item.paymentId ?? ''}-${i}`}>
                <td className={td}>
                  <Badge tone={item.type === 'payment' ? 'good' : item.type === 'refund' ? 'warn' : 'muted'}>{TYPE_LABEL[item.type]}</Badge>
                </td>
                <td className={`${td} font-mono break-all`}>{item.paymentId ?? '—'}</td>
                <td className={td}>
                  {item.type === 'adjustment' && !item.orderId ? (
                    <span className="text-muted">Razorpay’s</span>
                  ) : item.orderId ? (
                    <OrderLink orderId={item.orderId} />
                  ) : (
                    <Badge tone="warn">Unknown here</Badge>
                  )}
                </td>
                <td className={`${td} whitespace-nowrap tabular-nums`}>
                  {item.type === 'refund' ? `− ${inr(item.amount)}` : inr(item.amount)}
                </td>
                <td className={`${td} whitespace-nowrap tabular-nums`}>{inr(item.fee)}</td>
                <td className={`${td} whitespace-nowrap tabular-nums`}>{inr(item.tax)}</td>
              </tr>
            ))}
          </Table>
        )}
      </div>
    </Card>
  );
}

export default function PayoutsPage() {
  const [month, setMonth] = useState(thisMonth);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [syncing, setSyncing] = useState(false);
  const valid = MONTH.test(month);
  const { data, error, loading, reload } = useOperation(getAdminPayouts, valid ? { query: { month } } : null);

  async function syncNow() {
    setSyncing(true);
    setNotice(null);
    const { data: read, error: err } = await runOperation(postAdminPayoutsSync, { query: { month } });
    setSyncing(false);
    setActionError(err);
    if (read) {
      setNotice(
        `Read from Razorpay: ${read.settlements} ${read.settlements === 1 ? 'payout' : 'payouts'}, ${read.items} ` +
          `${read.items === 1 ? 'transaction' : 'transactions'}.`,
      );
      await reload();
    }
  }
  async function downloadNow() {
    setActionError(await downloadCsv(getAdminPayoutsCsv, { params: { month } }, `payouts-${month}.csv`));
  }

  return (
    <>
      <PageHeader title="Payouts" />
      <div className="mb-6 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink">
          Month
          <input type="month" className={inputClass} value={month} max={thisMonth()} onChange={(e) => setMonth(e.target.value)} />
        </label>
        <Button variant="secondary" className="min-h-11" disabled={!valid} onClick={() => void downloadNow()}>
          Download CSV
        </Button>
        <Button className="min-h-11" disabled={!valid || syncing} onClick={() => void syncNow()}>
          {syncing ? 'Reading Razorpay…' : 'Sync now'}
        </Button>
      </div>
      <p className="mb-6 max-w-3xl text-sm text-muted">
        Razorpay pays out what customers paid less its fee and the 18 % GST on that fee, which the agency claims as input tax credit. Read
        from Razorpay every day; “Sync now” reads the month again.
      </p>
      <div className="mb-6 flex flex-col gap-3 empty:hidden">
        {!valid && <ErrorText>Pick a month.</ErrorText>}
        {notice && <Notice>{notice}</Notice>}
        {actionError && <ErrorText>{actionError}</ErrorText>}
      </div>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <div className="flex flex-col gap-6">
            <Card title="The month">
              <Figures
                amount={data.totals.amount}
                fees={data.totals.fees}
                tax={data.totals.tax}
                amountLabel={`Paid into the bank (${data.payouts.length} ${data.payouts.length === 1 ? 'payout' : 'payouts'})`}
              />
            </Card>
            {data.payouts.length === 0 && <p className="text-sm text-muted">No payouts from Razorpay this month.</p>}
            {data.payouts.map((p) => (
              <PayoutCard key={p.id} payout={p} />
            ))}
            <Card title="Settled by Razorpay, unknown here">
              {data.unknownAtProvider.length === 0 ? (
                <p className="text-sm text-muted">Every payment and refund Razorpay settled this month is one of ours.</p>
              ) : (
                <>
                  <p className="mb-3 max-w-3xl text-sm text-muted">
                    Razorpay settled these, but no order here has them: look them up in Razorpay’s dashboard by their id.
                  </p>
                  <Table
                    label="Settled by Razorpay, unknown here"
                    head={['Razorpay id', 'Type', 'Razorpay order', 'Amount', 'Fee (incl. GST)', 'GST on fee', 'Payout']}
                  >
                    {data.unknownAtProvider.map((u) => (
                      <tr key={u.entityId}>
                        <td className={`${td} font-mono break-all`}>{u.entityId}</td>
                        <td className={td}>{u.type}</td>
                        <td className={`${td} font-mono break-all`}>{u.providerOrderId ?? '—'}</td>
                        <td className={`${td} whitespace-nowrap tabular-nums`}>{inr(u.amount)}</td>
                        <td className={`${td} whitespace-nowrap tabular-nums`}>{inr(u.fee)}</td>
                        <td className={`${td} whitespace-nowrap tabular-nums`}>{inr(u.tax)}</td>
                        <td className={td}>
                          <span className="font-mono break-all">{u.utr ?? u.settlementId}</span>
                          <span className="block text-xs text-muted">{formatWhen(u.settledAt)}</span>
                        </td>
                      </tr>
                    ))}
                  </Table>
                </>
              )}
            </Card>
            <Card title="Paid, not settled after 5 days">
              {data.unsettled.length === 0 ? (
                <p className="text-sm text-muted">No payment of this month is waiting for its payout past 5 days.</p>
              ) : (
                <>
                  <p className="mb-3 max-w-3xl text-sm text-muted">
                    Razorpay settles in about 2 working days (7 for payments from abroad). Ask Razorpay about these.
                  </p>
                  <Table label="Paid, not settled after 5 days" head={['Payment', 'Order', 'Amount', 'Paid']}>
                    {data.unsettled.map((u) => (
                      <tr key={u.paymentId}>
                        <td className={`${td} font-mono break-all`}>{u.paymentId}</td>
                        <td className={td}>
                          <OrderLink orderId={u.orderId} />
                        </td>
                        <td className={`${td} whitespace-nowrap tabular-nums`}>{formatMinor(u.amount, u.currency)}</td>
                        <td className={td}>{formatWhen(u.paidAt)}</td>
                      </tr>
                    ))}
                  </Table>
                </>
              )}
            </Card>
          </div>
        )}
      </Loadable>
    </>
  );
}
