import { useState, type FormEvent } from 'react';
import type { OrderDetailResponse } from '../../../contract/admin-orders.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatMinor, formatWhen } from './format.ts';
import { runOperation } from '../../lib/use-operation.ts';
import { postAdminOrdersRefunds } from '../../../contract/admin-orders.ts';

type Attempt = NonNullable<OrderDetailResponse['installments'][number]['attempts']>[number];

/**
 * "Refund needed" on the order page: a second payment for an installment already
 * paid. A Razorpay payment is refunded through Razorpay when the founder confirms; a test-mode one
 * is marked refunded with the founder's own reference. Every action is audited by the server.
 */
export function RefundPanel({ orderId, attempts, onDone }: { orderId: string; attempts: Attempt[]; onDone(message: string | null, error: string | null): Promise<void> }) {
  const duplicates = attempts.filter((a) => a.refundState);
  if (duplicates.length === 0) return null;
  return (
    <div className="flex flex-col gap-3">
      {duplicates.map((a) => (a.refundState === 'needed' ? <RefundNeeded key={a.providerOrderId} orderId={orderId} attempt={a} onDone={onDone} /> : <Refunded key={a.providerOrderId} attempt={a} />))}
    </div>
  );
}

function RefundNeeded({ orderId, attempt, onDone }: { orderId: string; attempt: Attempt; onDone(message: string | null, error: string | null): Promise<void> }) {
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
    await onDone('Payment marked refunded.', error);
  }
  return (
    <section className="rounded-2xl border-2 border-danger/70 bg-danger/10 p-4 sm:p-5" data-testid="refund-needed" aria-labelledby={`refund-${attempt.providerOrderId}`}>
      <h2 id={`refund-${attempt.providerOrderId}`} className="text-lg font-semibold text-white">
        Refund needed
      </h2>
      <p className="mt-1 text-sm text-ink">
        This installment was already paid when a second payment of <strong>{formatMinor(attempt.amount, attempt.currency)}</strong> came in on {formatWhen(attempt.paidAt)}. The customer was told it
        will be refunded.
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
            hint={viaProvider ? 'Refunded in full through Razorpay; its refund id becomes the reference.' : 'The bank or provider reference of the refund you made.'}
          />
        </div>
        <Button type="submit" disabled={busy || (!viaProvider && !reference.trim())} className="sm:mb-6">
          {viaProvider ? 'Refund through Razorpay' : 'Mark refunded'}
        </Button>
      </form>
    </section>
  );
}

function Refunded({ attempt }: { attempt: Attempt }) {
  return (
    <p className="rounded-xl border border-line bg-card px-4 py-3 text-sm text-muted" data-testid="refunded">
      Duplicate payment of {formatMinor(attempt.amount, attempt.currency)} refunded {formatWhen(attempt.refundedAt)} · reference <span className="break-all font-mono text-ink">{attempt.refundReference}</span>
    </p>
  );
}
