import type { ReactNode } from 'react';
import { BrandLogo } from '../../components/brand-logo.tsx';

/** The bare sign-in pages (spec §2): logo, one centred card, nothing else. */
export function AuthShell({ title, subtitle, children }: { title: ReactNode; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center px-4 py-8 sm:justify-center">
      <BrandLogo className="mb-8" />
      <section className="w-full max-w-md rounded-2xl border border-line bg-card p-6 shadow-2xl shadow-black/40 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-white sm:text-3xl">{title}</h1>
        {subtitle && <p className="mt-2 text-sm text-muted">{subtitle}</p>}
        <div className="mt-6 flex flex-col gap-4">{children}</div>
      </section>
    </div>
  );
}

export function FormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger">
      {children}
    </p>
  );
}

export function OrDivider() {
  return (
    <div className="flex items-center gap-3 text-xs uppercase tracking-wider text-muted" aria-hidden="true">
      <span className="h-px flex-1 bg-line" />
      or
      <span className="h-px flex-1 bg-line" />
    </div>
  );
}
