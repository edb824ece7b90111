import { LegalPage } from '../components/legal-page.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { siteConfig } from '../lib/site-config.ts';
import { TERMS_INTRO, TERMS_SECTIONS, fillTerms } from '../../domain/terms.ts';

const a = 'text-accent-soft underline underline-offset-2 hover:text-white';

/**
 * Spec §2 "Terms": 10 numbered sections. The wording lives in src/domain/terms.ts, which the server
 * hashes into the version a customer accepts at checkout (decision 146).
 */
export default function TermsPage() {
  usePageMeta('/termsandconditions');
  const { brand, email } = siteConfig();
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
    />
  );
}
