import { lazy, Suspense } from 'react';
import { useSession } from '../../lib/session.tsx';

// The logged-in view (code, copy button, cashback) belongs to the orders feature; it loads only
// for signed-in visitors.
const ReferralPanel = lazy(() => import('./referral-panel.tsx').then((m) => ({ default: m.ReferralPanel })));

/** Spec §2 "Referral page" code box (an island): 'LOGIN TO VIEW', or the signed-in user's code. */
export function ReferralBox() {
  const { isLoggedIn, loading } = useSession();
  return (
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
          <a
            href="/login"
            aria-disabled={loading || undefined}
            className="inline-flex min-h-11 items-center rounded-xl border border-dashed border-accent-soft px-5 font-bold tracking-wide
              text-accent-soft hover:bg-accent-strong/20"
          >
            LOGIN TO VIEW
          </a>
        </div>
      )}
    </div>
  );
}
