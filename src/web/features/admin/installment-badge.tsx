import { Badge } from './admin-ui.tsx';
import { formatMinor } from './format.ts';

/** An installment's state; its amount only when the answer carries it (the owner's: decision 232). */
export function InstallmentBadge({ amount, currency, state }: { amount?: number; currency?: string; state: 'due' | 'pending' | 'paid' }) {
  return (
    <span className="flex flex-col items-start gap-1 whitespace-nowrap">
      {amount !== undefined && currency !== undefined && <span>{formatMinor(amount, currency)}</span>}
      <Badge tone={state === 'paid' ? 'good' : state === 'pending' ? 'warn' : 'muted'}>{state === 'paid' ? 'Paid' : state === 'pending' ? 'Pending' : 'Due'}</Badge>
    </span>
  );
}
