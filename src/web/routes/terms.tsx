import { LegalPage } from '../components/legal-page.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { siteConfig } from '../lib/site-config.ts';
import { TERMS_INTRO, TERMS_SECTIONS, fillTerms } from '../../domain/terms.ts';
import {
  MAINTENANCE_TERMS,
  MAINTENANCE_TERMS_ANCHOR,
  MAINTENANCE_TERMS_TITLE,
  fillMaintenanceTerms,
} from '../../domain/maintenance-terms.ts';

const a = 'text-accent-soft underline underline-offset-2 hover:text-white';

/**
 * Spec §2 "Terms": 10 numbered sections. The wording lives in src/domain/terms.ts, which the server
 * hashes into the version a customer accepts at checkout (decision 146).
 */
export default function TermsPage() {
  usePageMeta('/termsandconditions');
  const { brand, email, maintenancePrice } = siteConfig();
  const fill = (s: string) => fillTerms(s, { brand, email });
  return (
    <LegalPage
      title="Terms and Conditions"
      intro={fill(TERMS_INTRO)}
      sections={TERMS_SECTIONS.map((s) => ({
        title: s.title,
        body: (
          <p>
            {s.body.map((part, i) =>
              typeof part === 'string' ? (
                fill(part)
              ) : (
                <a key={i} href={fill(part.href)} className={a}>
                  {fill(part.text)}
                </a>
              ),
            )}
          </p>
        ),
      }))}
      footer={
        // The maintenance plan's own terms, accepted when subscribing to it (docs/decisions/266-maintenance-terms-acceptance.md).
        <section
          id={MAINTENANCE_TERMS_ANCHOR}
          aria-labelledby={`${MAINTENANCE_TERMS_ANCHOR}-title`}
          className="scroll-mt-24 rounded-2xl border border-line bg-card p-6"
        >
          <h2 id={`${MAINTENANCE_TERMS_ANCHOR}-title`} className="text-xl font-semibold text-white">
            {MAINTENANCE_TERMS_TITLE}
          </h2>
          <div className="mt-3 space-y-3 leading-relaxed text-muted">
            {MAINTENANCE_TERMS.map((p) => (
              <p key={p}>{fillMaintenanceTerms(p, maintenancePrice)}</p>
            ))}
          </div>
        </section>
      }
    />
  );
}
