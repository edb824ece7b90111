import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
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
 * A table that scrolls sideways on a phone instead of squeezing its columns. `relative` keeps the
 * screen-reader-only labels of its buttons (absolutely positioned) inside the scroller, where they
 * widened the whole page; words break only where a cell says so (`wrapCell`, for long names).
 */
export function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-line" role="region" aria-label={label} tabIndex={0}>
      <table className="w-full min-w-[640px] text-left text-sm wrap-normal">
        <thead className="bg-field text-muted">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
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

export const td = 'px-3 py-2 align-top';
/** A cell with a customer's name or e-mail: long ones wrap (issue 12 item 13) instead of widening the table. */
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
