import type { ReactNode } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatWhenShort } from '../../../domain/when.ts';

// The few pieces every workspace panel shares, in the site's card look.

export function PanelCard({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <section className={`min-w-0 rounded-2xl border border-line bg-card p-4 sm:p-6 ${className}`}>{children}</section>;
}

export function PanelError({ message }: { message: string }) {
  return (
    <p role="alert" className="rounded-xl border border-danger/50 bg-danger/10 px-4 py-2 text-sm wrap-anywhere text-danger">
      {message}
    </p>
  );
}

export function PanelLoading({ label }: { label: string }) {
  return <Spinner label={label} className="h-6 w-6 text-accent-soft" />;
}

/** "2.4 MB", "830 KB", "120 B". */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** "Nov 25, 8:16 PM IST" — short, for lists of files and messages (the viewer's zone). */
export const formatShortWhen = (iso: string) => formatWhenShort(iso);
