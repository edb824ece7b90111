import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { PageHeading } from '../components/page-heading.tsx';
import { FAQS, faqAnswer } from '../features/landing/faqs-data.ts';
import { siteConfig } from '../lib/site-config.ts';

/** Spec §2 "FAQ": title 'FAQs' and six entries covering spec §1. Native disclosure, no JS needed. */
export default function FaqsPage() {
  usePageMeta('/faqs');
  const site = siteConfig();
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 lg:py-24">
      <PageHeading title="FAQs">Everything you may want to know before we build your website.</PageHeading>
      <div className="mt-10 space-y-3">
        {FAQS.map((f, i) => (
          <details key={f.q} className="group rounded-2xl border border-line bg-card px-5 py-1 open:border-accent/60" open={i === 0}>
            <summary
              className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 py-3 text-lg font-semibold text-white
                [&::-webkit-details-marker]:hidden"
            >
              <h2>{f.q}</h2>
              <span aria-hidden="true" className="text-2xl text-accent-soft transition-transform group-open:rotate-45">
                +
              </span>
            </summary>
            <p className="pb-5 leading-relaxed text-muted">{faqAnswer(f.a, site)}</p>
          </details>
        ))}
      </div>
    </div>
  );
}
