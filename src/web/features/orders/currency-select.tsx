import { useId } from 'react';
import type { Currency } from '../../../domain/money.ts';
import { currencyOptionLabel } from './visitor-currency.ts';

/**
 * A small labelled picker of the configured currencies (pricing page and /pay); nothing with fewer
 * than two, unless `keepInMarkup`: then it is there, hidden, for the pricing plan's DOM island to
 * fill in and show (the prerender knows only the default currency; decision 115).
 */
export function CurrencySelect({
  currencies,
  value,
  onChange,
  className = '',
  keepInMarkup = false,
}: {
  currencies: readonly Currency[];
  value: string;
  onChange(code: string): void;
  className?: string;
  keepInMarkup?: boolean;
}) {
  const id = useId();
  if (currencies.length < 2 && !keepInMarkup) return null;
  return (
    <div className={`flex items-center gap-2 text-sm ${className}`} hidden={currencies.length < 2}>
      <label htmlFor={id} className="text-muted">
        Currency
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-lg border border-line bg-field px-3 py-1.5 text-ink focus:border-accent focus:outline-none"
        data-testid="currency-select"
      >
        {currencies.map((c) => (
          <option key={c.code} value={c.code}>
            {currencyOptionLabel(c)}
          </option>
        ))}
      </select>
    </div>
  );
}
