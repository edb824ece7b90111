import type { ReactNode } from 'react';
import { PageHeading } from './page-heading.tsx';

export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** Terms and privacy: numbered sections in a readable column. */
export function LegalPage({
  title,
  intro,
  sections,
  footer,
}: {
  title: string;
  intro: ReactNode;
  sections: LegalSection[];
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 lg:py-24">
      <PageHeading title={title}>{intro}</PageHeading>
      <ol className="mt-10 space-y-8">
        {sections.map((s, i) => (
          <li key={s.title} className="rounded-2xl border border-line bg-card p-6">
            <h2 className="text-xl font-semibold text-white">
              <span className="mr-2 text-accent-soft">{i + 1}.</span>
              {s.title}
            </h2>
            <div className="mt-3 space-y-3 leading-relaxed text-muted">{s.body}</div>
          </li>
        ))}
      </ol>
      {footer && <div className="mt-10 text-muted">{footer}</div>}
    </div>
  );
}
