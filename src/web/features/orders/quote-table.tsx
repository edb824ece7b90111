import type { QuoteDto } from '../../../contract/pricing.ts';
import { formatMoney } from '../../../domain/money.ts';
import { PLATFORM_FEE_PERCENT } from '../../../domain/pricing.ts';

type Fmt = { symbol: string; minorDigits: number };

/** The server's quote, line by line; the due line is highlighted. */
export function QuoteTable({ quote, fmt, due, codeKind }: { quote: QuoteDto; fmt: Fmt; due: 'advance' | 'remaining'; codeKind?: 'promo' | 'referral' }) {
  const money = (minor: number) => formatMoney(minor, fmt);
  // A referral code's 5% is a referral discount, not a coupon.
  const discountLabel = codeKind === 'referral' ? 'Referral discount' : 'Coupon discount';
  const rows: [string, string, string?][] = [
    ['Amount', money(quote.price)],
    [`${discountLabel}${quote.discountPercent ? ` (${quote.discountPercent}%)` : ''}`, quote.discount ? `− ${money(quote.discount)}` : money(0)],
    ['Amount after discount', money(quote.afterDiscount)],
    [`Platform fee (${PLATFORM_FEE_PERCENT}%)`, money(quote.fee)],
    ['Total', money(quote.total), 'total'],
    ['Advance (20%)', money(quote.advance), due === 'advance' ? 'due' : undefined],
    ['Remaining (80%)', money(quote.remaining), due === 'remaining' ? 'due' : undefined],
  ];
  return (
    <dl className="divide-y divide-line rounded-2xl border border-line bg-card" data-testid="quote">
      {rows.map(([label, value, kind]) => (
        <div key={label} className={`flex items-center justify-between gap-4 px-5 py-3 ${kind === 'due' ? 'bg-accent-strong/15' : ''}`}>
          <dt className={kind ? 'font-semibold text-white' : 'text-muted'}>
            {label}
            {kind === 'due' && <span className="ml-2 inline-block whitespace-nowrap rounded-full bg-accent-strong px-2 py-0.5 text-xs text-white" data-testid="due-pill">Due now</span>}
          </dt>
          <dd className={`tabular-nums ${kind ? 'font-semibold text-white' : 'text-ink'}`} data-testid={kind === 'due' ? 'amount-due' : undefined}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
