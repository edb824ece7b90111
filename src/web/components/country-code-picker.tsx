import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { COUNTRIES, filterCountries, type Country } from '../../domain/countries.ts';
import { Flag } from './flag.tsx';

interface CountryCodePickerProps {
  value: Country;
  onChange: (country: Country) => void;
  /** Accessible name of the trigger; the selected country is appended. */
  label?: string;
  id?: string;
  className?: string;
}

const EXIT_MS = 100; // spec §9: dropdown panel exit 100 ms (enter 120 ms is the CSS animation)

/**
 * Spec §3 country-code picker: flag image, name, ISO code and phone code for about 200 countries,
 * filtered by a name or phone-code prefix, rows 38 px high. A button opens a panel with a search
 * combobox and a listbox (WAI-ARIA combobox pattern): arrows, Home/End, Enter, Escape.
 */
export function CountryCodePicker({ value, onChange, label = 'Country code', id, className = '' }: CountryCodePickerProps) {
  const autoId = useId();
  const baseId = id ?? autoId;
  const listId = `${baseId}-list`;
  const [open, setOpen] = useState(false);
  const [closing, setClosing] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const exitTimer = useRef<number | undefined>(undefined);
  const isOpen = open && !closing;
  const results = useMemo(() => filterCountries(query, COUNTRIES), [query]);

  const openPanel = () => {
    window.clearTimeout(exitTimer.current);
    setQuery('');
    setActive(
      Math.max(
        0,
        COUNTRIES.findIndex((c) => c.code === value.code),
      ),
    );
    setClosing(false);
    setOpen(true);
  };
  const closePanel = (refocus: boolean) => {
    setClosing(true);
    window.clearTimeout(exitTimer.current);
    exitTimer.current = window.setTimeout(() => {
      setOpen(false);
      setClosing(false);
    }, EXIT_MS);
    if (refocus) triggerRef.current?.focus();
  };
  const choose = (country: Country) => {
    onChange(country);
    closePanel(true);
  };

  useEffect(() => {
    if (open) searchRef.current?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) closePanel(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  useEffect(() => {
    if (open) document.getElementById(`${baseId}-opt-${results[active]?.code}`)?.scrollIntoView({ block: 'nearest' });
  }, [open, active, results, baseId]);

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = results.length - 1;
    const moves: Record<string, () => number> = {
      ArrowDown: () => Math.min(last, active + 1),
      ArrowUp: () => Math.max(0, active - 1),
      PageDown: () => Math.min(last, active + 5),
      PageUp: () => Math.max(0, active - 5),
    };
    if (moves[e.key]) {
      e.preventDefault();
      setActive(moves[e.key]!());
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const picked = results[active];
      if (picked) choose(picked);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      closePanel(true);
    } else if (e.key === 'Tab') {
      closePanel(false);
    }
  };

  return (
    <div ref={rootRef} className={`relative ${className}`}>
      <button
        ref={triggerRef}
        id={baseId}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={isOpen}
        aria-label={`${label}: ${value.name} +${value.phone_code}`}
        data-testid="country-code-trigger"
        onClick={() => (isOpen ? closePanel(false) : openPanel())}
        onKeyDown={(e) => {
          if (!isOpen && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            openPanel();
          }
        }}
        className="flex h-full min-h-11 w-full items-center gap-2 rounded-xl border border-line bg-field px-3 text-ink hover:border-accent
          focus:border-accent"
      >
        <Flag code={value.code} />
        <span className="tabular-nums">+{value.phone_code}</span>
        <svg className="ml-auto h-4 w-4 text-muted" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">
          <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.06l3.71-3.83a.75.75 0 1 1 1.08 1.04l-4.25 4.39a.75.75 0 0 1-1.08 0L5.21 8.27a.75.75 0 0 1 .02-1.06Z" />
        </svg>
      </button>
      {open && (
        <div
          className={`absolute left-0 z-50 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-xl border border-line bg-card p-2 shadow-2xl
          shadow-black/60 ${closing ? 'animate-panel-out' : 'animate-panel-in'}`}
        >
          <input
            ref={searchRef}
            type="text"
            role="combobox"
            aria-label="Search country name or code"
            aria-controls={listId}
            aria-expanded="true"
            aria-autocomplete="list"
            aria-activedescendant={results[active] ? `${baseId}-opt-${results[active].code}` : undefined}
            placeholder="Search name or code"
            autoComplete="off"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onKeyDown={onSearchKey}
            className="mb-2 w-full rounded-lg border border-line bg-field px-3 py-2 text-sm text-ink placeholder:text-placeholder
              focus:border-accent focus:outline-none"
          />
          <ul id={listId} role="listbox" aria-label="Countries" className="max-h-[200px] overflow-y-auto overscroll-contain">
            {results.map((c, i) => (
              <li
                key={c.code}
                id={`${baseId}-opt-${c.code}`}
                role="option"
                aria-selected={c.code === value.code}
                data-active={i === active || undefined}
                onMouseEnter={() => setActive(i)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(c)}
                className="flex h-[38px] cursor-pointer items-center gap-2 rounded-md px-2 text-sm text-ink
                  data-[active]:bg-accent-strong/30 aria-selected:font-semibold"
              >
                <Flag code={c.code} />
                <span className="truncate">{c.name}</span>
                <span className="text-muted">({c.code})</span>
                <span className="ml-auto tabular-nums text-muted">+{c.phone_code}</span>
              </li>
            ))}
          </ul>
          {results.length === 0 && <p className="px-2 py-2 text-sm text-muted">No country matches</p>}
        </div>
      )}
    </div>
  );
}
