import { useState } from 'react';
import { Link } from 'react-router';
import type { StatusResponse } from '../../../contract/tracker.ts';
import { formatMoney, toMajor } from '../../../domain/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { type CheckoutResult, openCheckout } from '../../lib/checkout.ts';
import { getStatusGetStatusOrderById } from '../../../contract/tracker.ts';
import { postPaymentCreateOrder } from '../../../contract/payments.ts';

/** /pay without isAdvance: the exact remaining amount of one order. */
export function RemainingPayment({ orderId, onPaid }: { orderId: string; onPaid(r: CheckoutResult): void }) {
  const read = useOperation(getStatusGetStatusOrderById, { params: { id: orderId } });
  const status: StatusResponse | null = read.data;
  const [payError, setError] = useState<string | null>(null);
  const error = payError ?? read.error;
  const [isPaying, setIsPaying] = useState(false);

  async function pay() {
    if (!status) return;
    setIsPaying(true);
    setError(null);
    try {
      const order = await call(postPaymentCreateOrder, {
        body: { kind: 'remaining', orderId, amount: toMajor(status.remaining.amount, status) },
      });
      const result = await openCheckout(order);
      if (result) onPaid(result);
      else setIsPaying(false);
    } catch (err) {
      setError(`Payment initiation failed. ${errorMessage(err)}`);
      setIsPaying(false);
    }
  }

  const money = (minor: number) => (status ? formatMoney(minor, status) : '');
  const isPaid = status?.remaining.state === 'paid';
  return (
    <div className="flex flex-col gap-6">
      {status ? (
        <dl className="divide-y divide-line rounded-2xl border border-line bg-card" data-testid="quote">
          <Row label="Order" value={status.order_id} />
          <Row label="Total" value={money(status.total)} />
          <Row label="Advance" value={`${money(status.advance.amount)} · ${status.advance.state === 'paid' ? 'Paid' : 'Due'}`} />
          <Row
            label="Remaining (80%)"
            value={isPaid ? `${money(status.remaining.amount)} · Paid` : money(status.remaining.amount)}
            strong
            testId="amount-due"
          />
        </dl>
      ) : (
        !error && <Spinner label="Loading your order" />
      )}
      {error && (
        <p role="alert" className="rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-sm text-danger">
          {error}
        </p>
      )}
      {isPaid ? (
        <Link to={`/status/${encodeURIComponent(orderId)}`} className="text-accent-soft underline">
          This order is fully paid — see its progress
        </Link>
      ) : (
        <Button
          onClick={pay}
          disabled={!status || isPaying || status.advance.state !== 'paid'}
          className="w-full py-3 text-base"
          data-primary-action
        >
          {isPaying ? <Spinner label="Opening the checkout" className="h-4 w-4" /> : null}
          {status ? `Pay ${money(status.remaining.amount)}` : 'Pay'}
        </Button>
      )}
    </div>
  );
}

function Row({ label, value, strong, testId }: { label: string; value: string; strong?: boolean; testId?: string }) {
  return (
    <div className={`flex items-center justify-between gap-4 px-5 py-3 ${strong ? 'bg-accent-strong/15' : ''}`}>
      <dt className={strong ? 'font-semibold text-white' : 'text-muted'}>{label}</dt>
      <dd className={`tabular-nums ${strong ? 'font-semibold text-white' : 'text-ink'}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
