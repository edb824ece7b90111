import { Badge } from '../../components/back-office/admin-ui.tsx';
import { formatMinor } from '../../components/back-office/format.ts';

/**
 * An installment's state; its amount only when the answer carries it (the owner's: decision 232).
 * An unpaid installment of a cancelled order is no longer due (docs/decisions/321-cancel-and-refund.md).
 */
export function InstallmentBadge({
  amount,
  currency,
  state,
  cancelled = false,
}: {
  amount?: number;
  currency?: string;
  state: 'due' | 'pending' | 'paid';
  cancelled?: boolean;
}) {
  const label = state === 'paid' ? 'Paid' : cancelled ? 'Cancelled' : state === 'pending' ? 'Pending' : 'Due';
  return (
    <span className="flex flex-col items-start gap-1 whitespace-nowrap">
      {amount !== undefined && currency !== undefined && <span>{formatMinor(amount, currency)}</span>}
      <Badge tone={state === 'paid' ? 'good' : state === 'pending' && !cancelled ? 'warn' : 'muted'}>{label}</Badge>
    </span>
  );
}
