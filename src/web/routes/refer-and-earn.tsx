import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { PageHeading } from '../components/page-heading.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { useSession } from '../lib/session.tsx';

// The logged-in view (code, copy button, cashback) belongs to the orders feature; it loads only
// for signed-in visitors.
const ReferralPanel = lazy(() => import('../features/referrals/referral-panel.tsx').then((m) => ({ default: m.ReferralPanel })));

/** Spec §2 "Referral page": the code or 'LOGIN TO VIEW', the reward and the terms. */
export default function ReferAndEarnPage() {
  usePageMeta('/referAndEarn');
  const { isLoggedIn, loading } = useSession();
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 lg:py-24">
      <PageHeading eyebrow="Refer and earn" title="Share your code, earn cashback">
        Your friend saves 5% on their website and you earn the same amount back, up to 50 times the currency factor ($50 in US dollars).
      </PageHeading>
      <div className="mt-10 rounded-3xl border border-line bg-card p-6 sm:p-8" data-testid="referral-code-box">
        {isLoggedIn ? (
          <Suspense fallback={<p className="text-muted">Loading your code…</p>}>
            <ReferralPanel />
          </Suspense>
        ) : (
          <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <h2 className="text-xl font-semibold text-white">Your referral code</h2>
              <p className="mt-1 text-muted">Sign in to see your personal code and your cashback.</p>
            </div>
            <Link
              to="/login"
              aria-disabled={loading || undefined}
              className="inline-flex min-h-11 items-center rounded-xl border border-dashed border-accent-soft px-5 font-bold tracking-wide text-accent-soft hover:bg-accent-strong/20"
            >
              LOGIN TO VIEW
            </Link>
          </div>
        )}
      </div>
      <section aria-labelledby="referral-terms" className="mt-10">
        <h2 id="referral-terms" className="text-2xl font-semibold text-white">
          Terms
        </h2>
        <ul className="mt-4 list-disc space-y-2 pl-5 text-muted">
          <li>The customer gets a 5% discount and the referrer gets cashback equal to that discount.</li>
          <li>The code must be applied during the advance payment.</li>
          <li>Only complete payments qualify.</li>
          <li>The code can be reused.</li>
          <li>A user may not use their own code.</li>
          <li>Valid until January 31, 2025.</li>
        </ul>
      </section>
    </div>
  );
}
