import { useId } from 'react';
import type { Currency } from '../../../domain/money.ts';

/** A small labelled picker of the configured currencies (pricing page and /pay). */
export function CurrencySelect({ currencies, value, onChange, className = '' }: { currencies: readonly Currency[]; value: string; onChange(code: string): void; className?: string }) {
  const id = useId();
  if (currencies.length < 2) return null;
  return (
    <div className={`flex items-center gap-2 text-sm ${className}`}>
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
            {c.code} ({c.symbol.trim()})
          </option>
        ))}
      </select>
    </div>
  );
}
