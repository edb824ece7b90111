import { useState, type FormEvent } from 'react';
import type { OrderDetailResponse } from '../../../contract/admin-orders.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';
import { runOperation } from '../../lib/use-operation.ts';
import { postAdminOrdersRefunds } from '../../../contract/admin-orders.ts';

type Attempt = NonNullable<OrderDetailResponse['installments'][number]['attempts']>[number];

/**
 * "Refund needed" on the order page: a second payment for an installment already
 * paid (or for an order cancelled meanwhile). A Razorpay payment is refunded through Razorpay when
 * the founder confirms; a test-mode one is marked refunded with the founder's own reference. Every
 * action is audited by the server. Refunds made are listed with all the order's others in the
 * cancel panel's "Refunds" (cancel-panel.tsx, docs/decisions/321-cancel-and-refund.md).
 */
export function RefundPanel({
  orderId,
  attempts,
  onDone,
}: {
  orderId: string;
  attempts: Attempt[];
  onDone(message: string | null, error: string | null): Promise<void>;
}) {
  const needed = attempts.filter((a) => a.state === 'duplicate' && a.refundState === 'needed');
  if (needed.length === 0) return null;
  return (
    <div className="flex flex-col gap-3">
      {needed.map((a) => (
        <RefundNeeded key={a.providerOrderId} orderId={orderId} attempt={a} onDone={onDone} />
      ))}
    </div>
  );
}

function RefundNeeded({
  orderId,
  attempt,
  onDone,
}: {
  orderId: string;
  attempt: Attempt;
  onDone(message: string | null, error: string | null): Promise<void>;
}) {
  const [reference, setReference] = useState('');
  const [busy, setBusy] = useState(false);
  const viaProvider = attempt.provider === 'razorpay';
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const { error } = await runOperation(postAdminOrdersRefunds, {
      params: { id: orderId },
      body: { providerPaymentId: attempt.providerPaymentId ?? '', ...(reference.trim() ? { reference: reference.trim() } : {}) },
    });
    setBusy(false);
    await onDone('Duplicate payment refunded.', error);
  }
  return (
    <section
      className="rounded-2xl border-2 border-danger/70 bg-danger/10 p-4 sm:p-5"
      data-testid="refund-needed"
      aria-labelledby={`refund-${attempt.providerOrderId}`}
    >
      <h2 id={`refund-${attempt.providerOrderId}`} className="text-lg font-semibold text-white">
        Refund needed
      </h2>
      <p className="mt-1 text-sm text-ink">
        This installment was already paid when a second payment of <strong>{formatMinor(attempt.amount, attempt.currency)}</strong> came in
        on {formatWhen(attempt.paidAt)}. The customer was told it will be refunded.
      </p>
      <p className="mt-1 break-all font-mono text-xs text-muted">Payment {attempt.providerPaymentId}</p>
      <form onSubmit={submit} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <TextField
            label={viaProvider ? 'Note (optional)' : 'Refund reference'}
            value={reference}
            maxLength={200}
            required={!viaProvider}
            onChange={(e) => setReference(e.target.value)}
            hint={
              viaProvider
                ? 'Refunded in full through Razorpay; its refund id becomes the reference.'
                : 'The bank or provider reference of the refund you made.'
            }
          />
        </div>
        <Button type="submit" disabled={busy || (!viaProvider && !reference.trim())} className="sm:mb-6">
          {viaProvider ? 'Refund through Razorpay' : 'Mark refunded'}
        </Button>
      </form>
    </section>
  );
}
