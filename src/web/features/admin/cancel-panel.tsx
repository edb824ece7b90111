import { useId, useState, type FormEvent } from 'react';
import { findCurrency } from '../../../domain/currencies.ts';
import { formatAmount, toMinor } from '../../../domain/money.ts';
import {
  CANCEL_REASON_MAX,
  getAdminOrdersRefunds,
  postAdminOrdersCancel,
  postAdminRefundsRetry,
  type AdminRefund,
} from '../../../contract/refunds.ts';
import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { TextField, inputClass } from '../../components/ui/text-field.tsx';
import { runOperation, useOperation, useReloadOn } from '../../lib/use-operation.ts';
import { Card, ErrorText, Table, td } from '../../components/back-office/admin-ui.tsx';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';

// The owner's cancel and the order's refunds (docs/decisions/321-cancel-and-refund.md): every refund
// of the order with its origin, status, amount and reference (a failed one with Retry), and while
// the order may be cancelled, the "Cancel order" form with the terms' default refund.

type Done = (message: string | null, error: string | null) => Promise<void>;

const ORIGIN: Record<AdminRefund['origin'], string> = {
  cancel: 'Cancel',
  duplicate: 'Duplicate payment',
  dashboard: 'Razorpay dashboard',
  manual: 'Refund of a payment',
};
const STATUS: Record<AdminRefund['status'], { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'border-amber-400/60 text-amber-200' },
  processed: { label: 'Refunded', className: 'border-success/60 text-success' },
  failed: { label: 'Failed', className: 'border-danger/70 text-danger' },
};

/** Major units typed by the owner → minor units (null when not a number). */
function minorOf(text: string, currency: string): number | null {
  const n = Number(text.replace(/,/g, '').trim());
  if (!text.trim() || !Number.isFinite(n)) return null;
  return toMinor(n, findCurrency(currency) ?? { minorDigits: 2 });
}
const majorText = (minor: number, currency: string) => formatAmount(minor, findCurrency(currency) ?? { minorDigits: 2 });

/**
 * For the owner (staff never get it: permissions.ts): `part` 'status' — the cancelled banner and the
 * order's refunds, at the top of the page; 'form' — the cancel form while the order may be
 * cancelled, at the foot of the page. Both read the same answer (one query).
 */
export function CancelPanel({
  orderId,
  refreshKey,
  onDone,
  part,
}: {
  orderId: string;
  refreshKey: unknown;
  onDone: Done;
  part: 'status' | 'form';
}) {
  const { data, error, reload } = useOperation(getAdminOrdersRefunds, { params: { id: orderId } });
  // The order page read again (a stage, a payment): so is this.
  useReloadOn(refreshKey, reload);
  if (error) return <ErrorText>{error}</ErrorText>;
  if (!data) return null;
  const after: Done = async (message, err) => {
    await reload();
    await onDone(message, err);
  };
  const { cancel } = data;
  if (part === 'form') {
    if (cancel.allowed)
      return (
        <CancelForm
          orderId={orderId}
          currency={data.currency}
          maxRefund={cancel.maxRefund}
          defaultRefund={cancel.defaultRefund}
          defaultReason={cancel.defaultReason}
          onDone={after}
        />
      );
    return !cancel.cancelledAt && cancel.refusal ? (
      <p className="text-sm text-muted" data-testid="cancel-refused">
        {cancel.refusal}
      </p>
    ) : null;
  }
  return (
    <>
      {cancel.cancelledAt && (
        <section
          className="rounded-2xl border-2 border-danger/70 bg-danger/10 p-4 sm:p-5"
          data-testid="order-cancelled"
          aria-labelledby="order-cancelled"
        >
          <h2 id="order-cancelled" className="text-lg font-semibold text-white">
            Cancelled {formatWhen(cancel.cancelledAt)}
          </h2>
          <p className="mt-1 whitespace-pre-line break-words text-sm text-ink">{cancel.reason}</p>
          <p className="mt-1 text-sm text-muted">Nothing more is due on this order; the customer sees it as cancelled.</p>
        </section>
      )}
      {data.refunds.length > 0 && <RefundList refunds={data.refunds} onDone={after} />}
    </>
  );
}

function RefundList({ refunds, onDone }: { refunds: AdminRefund[]; onDone: Done }) {
  const [busy, setBusy] = useState<string | null>(null);
  async function retry(r: AdminRefund) {
    setBusy(r.id);
    const { error } = await runOperation(postAdminRefundsRetry, { params: { id: r.id } });
    setBusy(null);
    await onDone('Razorpay was asked again for the refund.', error);
  }
  return (
    <Card title="Refunds">
      <Table label="Refunds" head={['Refund', 'Status', 'Amount', 'Reference', 'Document']}>
        {refunds.map((r) => (
          <tr key={r.id} data-testid="refund-row">
            <td className={`${td} min-w-[9rem]`}>
              <div className="text-white">{ORIGIN[r.origin]}</div>
              <div className="text-xs text-muted">{formatWhen(r.processedAt ?? r.failedAt ?? r.createdAt)}</div>
              {r.testMode && <div className="text-xs text-muted">Test mode</div>}
            </td>
            <td className={td}>
              <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${STATUS[r.status].className}`}>
                {STATUS[r.status].label}
              </span>
              {r.status === 'failed' && r.failureReason && (
                <div className="mt-1 max-w-[16rem] break-words text-xs text-ink">{r.failureReason}</div>
              )}
              {r.status === 'failed' && (
                <Button variant="secondary" className="mt-2 px-3 py-1.5" onClick={() => void retry(r)} disabled={busy !== null}>
                  Retry
                </Button>
              )}
            </td>
            <td className={`${td} whitespace-nowrap`}>{formatMinor(r.amount, r.currency)}</td>
            <td className={`${td} font-mono text-xs break-all`}>
              {r.reference ?? '—'}
              <div className="text-muted">payment {r.paymentId}</div>
            </td>
            <td className={`${td} text-xs`}>
              {r.document ? `${r.document.kind === 'credit_note' ? 'Credit note' : 'Refund voucher'} ${r.document.number}` : '—'}
            </td>
          </tr>
        ))}
      </Table>
    </Card>
  );
}

function CancelForm(p: {
  orderId: string;
  currency: string;
  maxRefund: number;
  defaultRefund: number;
  defaultReason: string;
  onDone: Done;
}) {
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState(() => majorText(p.defaultRefund, p.currency));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const minor = minorOf(amount, p.currency);
  const amountError =
    minor === null
      ? 'Enter an amount (0 for no refund).'
      : minor < 0
        ? 'The refund cannot be negative.'
        : minor > p.maxRefund
          ? `At most ${formatMinor(p.maxRefund, p.currency)}.`
          : null;

  function ask(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!reason.trim()) return setError('Say why the order is cancelled.');
    if (amountError) return setError(amountError);
    setConfirming(true);
  }
  async function confirm() {
    setBusy(true);
    const { data, error: err } = await runOperation(postAdminOrdersCancel, {
      params: { id: p.orderId },
      body: { reason: reason.trim(), refundAmount: minor ?? 0 },
    });
    setBusy(false);
    setConfirming(false);
    if (err) return setError(err);
    const refunds = data?.refunds ?? [];
    const refunded = formatMinor(minor ?? 0, p.currency);
    await p.onDone(
      refunds.length === 0
        ? 'Order cancelled. Nothing was refunded.'
        : refunds.some((r) => r.status === 'failed')
          ? 'Order cancelled. Razorpay did not accept the refund: retry it under Refunds.'
          : refunds.every((r) => r.status === 'processed')
            ? `Order cancelled and ${refunded} refunded.`
            : `Order cancelled. ${refunded} was asked of Razorpay; it shows as refunded when Razorpay confirms it.`,
      null,
    );
  }
  return (
    <Card title="Cancel order">
      <form onSubmit={ask} className="flex flex-col gap-4" data-testid="cancel-form" noValidate>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={reasonId} className="text-sm font-medium text-ink">
            Reason
          </label>
          <textarea
            id={reasonId}
            className={`${inputClass} min-h-24`}
            value={reason}
            maxLength={CANCEL_REASON_MAX}
            onChange={(e) => setReason(e.target.value)}
            required
          />
          <p className="text-xs text-muted">Kept on the order and sent to the customer.</p>
        </div>
        <TextField
          label={`Refund (${p.currency})`}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={amount.trim() && amountError ? amountError : null}
          hint={
            <>
              {p.defaultReason} Default {formatMinor(p.defaultRefund, p.currency)} · at most {formatMinor(p.maxRefund, p.currency)} (paid,
              net of earlier refunds).
            </>
          }
        />
        {error && <ErrorText>{error}</ErrorText>}
        <div>
          <button
            type="submit"
            className="inline-flex items-center justify-center rounded-xl border border-danger/70 px-5 py-2.5 text-sm font-semibold
              text-danger hover:bg-danger/10 disabled:cursor-not-allowed disabled:opacity-60"
          >
            Cancel order…
          </button>
        </div>
      </form>
      {confirming && (
        <ModalDialog title={`Cancel order ${p.orderId}?`} onClose={() => setConfirming(false)} busy={busy} testId="cancel-dialog">
          <p className="text-sm">
            {minor
              ? `${formatMinor(minor, p.currency)} goes back to the customer through Razorpay, and nothing more is due on the order.`
              : 'Nothing is refunded, and nothing more is due on the order.'}{' '}
            The customer is e-mailed. This cannot be undone.
          </p>
          <div className="mt-5 flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy} data-autofocus>
              Keep the order
            </Button>
            <button
              type="button"
              disabled={busy}
              className="inline-flex items-center justify-center rounded-xl border border-danger/70 bg-danger/10 px-5 py-2.5 text-sm
                font-semibold text-danger hover:bg-danger/20 disabled:cursor-not-allowed disabled:opacity-60"
              onClick={() => void confirm()}
            >
              {minor ? `Cancel and refund ${formatMinor(minor, p.currency)}` : 'Cancel without refund'}
            </button>
          </div>
        </ModalDialog>
      )}
    </Card>
  );
}
