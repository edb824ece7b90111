import { Badge } from './admin-ui.tsx';
import { formatMinor } from './format.ts';

export function InstallmentBadge({ amount, currency, state }: { amount: number; currency: string; state: 'due' | 'pending' | 'paid' }) {
  return (
    <span className="flex flex-col items-start gap-1 whitespace-nowrap">
      <span>{formatMinor(amount, currency)}</span>
      <Badge tone={state === 'paid' ? 'good' : state === 'pending' ? 'warn' : 'muted'}>{state === 'paid' ? 'Paid' : state === 'pending' ? 'Pending' : 'Due'}</Badge>
    </span>
  );
}
