import type { ReactNode } from 'react';

/** The heading block of a content page: eyebrow, title and an optional lead paragraph. */
export function PageHeading({ eyebrow, title, children }: { eyebrow?: string; title: ReactNode; children?: ReactNode }) {
  return (
    <div className="max-w-3xl">
      {eyebrow && <p className="text-sm font-semibold tracking-[0.2em] text-accent-soft uppercase">{eyebrow}</p>}
      <h1 className="mt-2 text-4xl font-bold tracking-tight text-white sm:text-5xl">{title}</h1>
      {children && <div className="mt-4 text-lg text-muted">{children}</div>}
    </div>
  );
}
