import { Link, useParams } from 'react-router';
import { getTermsVersionsByVersion } from '../../contract/terms.ts';
import { LegalPage } from '../components/legal-page.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { useOperation } from '../lib/use-operation.ts';

const a = 'text-accent-soft underline underline-offset-2 hover:text-white';

/**
 * One version of the Terms and Conditions, word for word as a customer accepted it
 * (docs/decisions/272-accepted-terms-readable.md); linked from the order page, the back office and
 * the account export. The current wording is on /termsandconditions.
 */
export default function TermsVersionPage() {
  const { version = '' } = useParams();
  const { data, error } = useOperation(getTermsVersionsByVersion, { params: { version } });
  if (error)
    return (
      <div className="mx-auto max-w-3xl px-4 py-16" role="alert">
        <h1 className="text-3xl font-bold text-white">Terms and Conditions</h1>
        <p className="mt-4 text-ink">{error}</p>
        <Link to="/termsandconditions" className={`mt-4 inline-block py-2 ${a}`}>
          Read the current terms
        </Link>
      </div>
    );
  if (!data) return <Spinner label="Loading the terms" />;
  return (
    <LegalPage
      title="Terms and Conditions"
      intro={
        <>
          <span className="block">{data.intro}</span>
          <span className="mt-3 block text-sm" data-testid="terms-version">
            The wording accepted, version <span className="font-mono">{data.version}</span>.{' '}
            {data.current ? (
              'It is the wording on the site today.'
            ) : (
              <>
                The terms have changed since:{' '}
                <Link to="/termsandconditions" className={a}>
                  read the current terms
                </Link>
                .
              </>
            )}
          </span>
        </>
      }
      sections={data.sections.map((s) => ({
        title: s.title,
        body: (
          <p>
            {s.body.map((part, i) =>
              typeof part === 'string' ? (
                part
              ) : (
                <a key={i} href={part.href} className={a}>
                  {part.text}
                </a>
              ),
            )}
          </p>
        ),
      }))}
    />
  );
}
