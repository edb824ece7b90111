import { useId, type ReactNode } from 'react';

/** One card of the dashboard's Personal Details tab: a titled region, so screen readers can jump to it. */
export function AccountCard({
  title,
  intro,
  children,
  testId,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} data-testid={testId} className="min-w-0 rounded-2xl border border-line bg-card p-5 sm:p-8">
      <h2 id={id} className="text-lg font-semibold text-white">
        {title}
      </h2>
      {intro && <p className="mt-1 text-sm text-muted">{intro}</p>}
      <div className="mt-5">{children}</div>
    </section>
  );
}
