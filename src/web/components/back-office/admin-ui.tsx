import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import { Spinner } from '../ui/spinner.tsx';
import type { PageInfo } from '../../../contract/admin.ts';

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <h1 className="text-2xl font-bold text-white sm:text-3xl">{title}</h1>
      {children}
    </div>
  );
}

export function Card({ title, children, className = '' }: { title?: string; children: ReactNode; className?: string }) {
  return (
    <section className={`min-w-0 rounded-2xl border border-line bg-card p-4 sm:p-5 ${className}`}>
      {title && <h2 className="mb-3 text-lg font-semibold text-white">{title}</h2>}
      {children}
    </section>
  );
}

/** Loading, error or the content: one place for the three states of every admin screen. */
export function Loadable({ loading, error, children }: { loading: boolean; error: string | null; children: ReactNode }) {
  if (error) return <ErrorText>{error}</ErrorText>;
  if (loading) return <Spinner label="Loading" className="h-6 w-6 text-accent-soft" />;
  return <>{children}</>;
}

export function ErrorText({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-xl border border-danger/50 bg-danger/10 px-4 py-2 text-sm text-danger">
      {children}
    </p>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-xl border border-success/40 bg-success/10 px-4 py-2 text-sm text-success">
      {children}
    </p>
  );
}

export function Pagination({ info, onPage }: { info: PageInfo; onPage(page: number): void }) {
  const pages = Math.max(1, Math.ceil(info.total / info.pageSize));
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-3 text-sm text-muted">
      <span>
        {info.total} in all · page {info.page} of {pages}
      </span>
      <span className="flex gap-2">
        <Button variant="secondary" disabled={info.page <= 1} onClick={() => onPage(info.page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" disabled={info.page >= pages} onClick={() => onPage(info.page + 1)}>
          Next
        </Button>
      </span>
    </nav>
  );
}

/**
 * A table where it fits; where it does not (a phone, a narrow window, a long audit entry), each row
 * becomes a card of "column / value" lines, so nothing lies past an edge. A sideways-scrolling table
 * hid e-mails, dates and buttons with no sign that it scrolled (decision 129).
 * Whether it fits is measured, not guessed from the screen width: rendered as a table first (before
 * paint), switched to cards if wider than its box, and back when the box grows past the width the
 * table needed. The column names come from `head`: each cell gets its column's name as
 * `data-label` once rendered, so the pages keep writing plain <td>s. A cell spanning the row (an
 * edit form) is shown whole.
 */
export function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const needed = useRef(0);
  const [mode, setMode] = useState<'measure' | 'table' | 'cards'>('measure');

  // New rows: measure again as a table.
  useLayoutEffect(() => setMode('measure'), [children, head]);
  // Every render: the rows may have changed.
  useLayoutEffect(() => {
    for (const row of table.current?.tBodies[0]?.rows ?? []) {
      let column = 0;
      for (const cell of row.cells) {
        const name = cell.colSpan === 1 ? head[column] : undefined;
        if (name) cell.dataset.label = name;
        else delete cell.dataset.label;
        column += cell.colSpan;
      }
    }
  });
  useLayoutEffect(() => {
    if (mode !== 'measure' || !box.current || !table.current) return;
    needed.current = table.current.scrollWidth;
    setMode(needed.current > box.current.clientWidth + 1 ? 'cards' : 'table');
  }, [mode]);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      const width = el.clientWidth;
      setMode((m) => (m === 'measure' ? m : needed.current > width + 1 ? 'cards' : 'table'));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const cards = mode === 'cards';
  return (
    <div
      ref={box}
      className="relative overflow-x-auto rounded-xl border border-line"
      role="region"
      aria-label={label}
      tabIndex={0}
      data-layout={mode}
    >
      <table ref={table} className={`w-full text-left text-sm wrap-normal ${cards ? cardClasses : ''}`}>
        <thead className={`bg-field text-muted ${cards ? 'sr-only' : ''}`}>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{children}</tbody>
      </table>
    </div>
  );
}

// As cards: rows and cells are blocks; each cell's column name (its data-label) stands above it.
const cardClasses = [
  '[&>tbody]:block [&>tbody>tr]:block [&>tbody>tr]:py-2',
  '[&>tbody>tr>td]:block [&>tbody>tr>td]:py-1 [&>tbody>tr>td]:whitespace-normal [&>tbody>tr>td]:wrap-anywhere [&>tbody>tr>td]:min-w-0',
  '[&>tbody>tr>td[data-label]]:before:block [&>tbody>tr>td[data-label]]:before:content-[attr(data-label)]',
  '[&>tbody>tr>td]:before:text-xs [&>tbody>tr>td]:before:text-muted',
].join(' ');

export const td = 'px-3 py-2 align-top';
/** A cell with a customer's name or e-mail: long ones wrap instead of widening the table. */
export const wrapCell = 'min-w-[10rem] wrap-anywhere';

export function Badge({ tone = 'muted', children }: { tone?: 'muted' | 'good' | 'warn' | 'accent'; children: ReactNode }) {
  const tones = {
    muted: 'border-line text-muted',
    good: 'border-success/50 text-success',
    warn: 'border-glow-yellow/60 text-glow-yellow',
    accent: 'border-accent text-accent-soft',
  };
  return <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${tones[tone]}`}>{children}</span>;
}
