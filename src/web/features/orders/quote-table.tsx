import type { PriceLineDto, QuoteDto } from '../../../contract/pricing.ts';
import { formatMoney } from '../../../domain/money.ts';

type Fmt = { symbol: string; minorDigits: number };

/**
 * The server's quote, line by line in the words of the one description of the price
 * (src/domain/price-lines.ts, the documents' words too), then the installments; the due line is highlighted.
 */
export function QuoteTable({ quote, lines, fmt, due }: { quote: QuoteDto; lines: PriceLineDto[]; fmt: Fmt; due: 'advance' | 'remaining' }) {
  const money = (minor: number) => (minor < 0 ? `− ${formatMoney(-minor, fmt)}` : formatMoney(minor, fmt));
  const rows: [string, string, string?][] = [
    ...lines.map((l): [string, string, string?] => [l.label, money(l.amount), l.key === 'total' ? 'total' : undefined]),
    // GST (docs/decisions/220-gst-tax-rules.md): where the supply is taxed.
    ...(quote.supplyType === 'none'
      ? []
      : [['Place of supply', `${quote.placeOfSupply.name} (${quote.placeOfSupply.code})`] as [string, string]]),
    ['Advance (20%)', money(quote.advance), due === 'advance' ? 'due' : undefined],
    ['Remaining (80%)', money(quote.remaining), due === 'remaining' ? 'due' : undefined],
  ];
  return (
    <dl className="divide-y divide-line rounded-2xl border border-line bg-card" data-testid="quote">
      {rows.map(([label, value, kind]) => (
        <div key={label} className={`flex items-center justify-between gap-4 px-5 py-3 ${kind === 'due' ? 'bg-accent-strong/15' : ''}`}>
          <dt className={kind ? 'font-semibold text-white' : 'text-muted'}>
            {label}
            {kind === 'due' && (
              <span
                className="ml-2 inline-block whitespace-nowrap rounded-full bg-accent-strong px-2 py-0.5 text-xs text-white"
                data-testid="due-pill"
              >
                Due now
              </span>
            )}
          </dt>
          <dd
            className={`tabular-nums ${kind ? 'font-semibold text-white' : 'text-ink'}`}
            data-testid={kind === 'due' ? 'amount-due' : undefined}
          >
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
