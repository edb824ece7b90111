import { useEffect, useState } from 'react';
import type { ReferralSummary } from '../../../contract/referrals.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { formatMoney } from '../../../domain/money.ts';
import { formatWhen } from '../../../domain/when.ts';
import { callEndpoint } from '../../lib/api.ts';
import { REFERRAL_PERCENT, cashbackCap } from '../../../domain/referral.ts';
import { useCurrency } from '../orders/index.ts';
import { getReferralSummaryEndpoint } from '../../../contract/endpoints.ts';

const COPIED_MS = 5000;

/**
 * The logged-in part of /referAndEarn: the user's code with 'TAP TO COPY' (→ 'COPIED!' for 5 s)
 * and their cashback, pending / earned / paid.
 */
export function ReferralPanel() {
  const [summary, setSummary] = useState<ReferralSummary | null>(null);
  const [isCopied, setIsCopied] = useState(false);
  // The reward's cap in the visitor's own currency (spec §2: 50 × the currency factor, as money).
  const { currency } = useCurrency();

  // An island's read (no query client on the public pages: docs/decisions/115-dom-islands-before-interaction.md).
  useEffect(() => {
    callEndpoint(getReferralSummaryEndpoint)
      .then(setSummary)
      .catch(() => console.log('referral summary failed'));
  }, []);
  useEffect(() => {
    if (!isCopied) return;
    const id = setTimeout(() => setIsCopied(false), COPIED_MS);
    return () => clearTimeout(id);
  }, [isCopied]);

  async function copy() {
    if (!summary) return;
    try {
      await navigator.clipboard.writeText(summary.code);
      setIsCopied(true);
    } catch {
      console.log('clipboard copy failed');
    }
  }

  const fmt = (amount: number, currency: string) =>
    formatMoney(amount, findCurrency(currency) ?? { symbol: `${currency} `, minorDigits: 2 });

  return (
    <div className="flex flex-col gap-6" data-testid="referral-panel">
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-accent bg-card p-6 text-center">
        <p className="text-sm text-muted">Your referral code</p>
        <p className="font-mono text-3xl font-bold tracking-widest text-white" data-testid="referral-code">
          {summary?.code ?? '········'}
        </p>
        <button
          type="button"
          onClick={copy}
          disabled={!summary}
          className="rounded-xl bg-accent-strong px-5 py-2 text-sm font-semibold text-white hover:bg-accent-hover disabled:opacity-60"
        >
          {isCopied ? (
            <span className="inline-flex items-center gap-1.5">
              <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
                <path
                  fillRule="evenodd"
                  d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
                  clipRule="evenodd"
                />
              </svg>
              COPIED!
            </span>
          ) : (
            'TAP TO COPY'
          )}
        </button>
        <p className="text-sm text-ink" data-testid="referral-cap">
          Your friend saves {REFERRAL_PERCENT}%; you earn the same back, up to {formatMoney(cashbackCap(currency), currency)} per referred
          order.
        </p>
        {summary?.validUntil && <p className="text-xs text-muted">Referral codes are accepted until {formatWhen(summary.validUntil)}.</p>}
      </div>
      <div className="rounded-2xl border border-line bg-card p-6">
        <h2 className="text-lg font-semibold text-white">Your cashback</h2>
        {!summary || summary.totals.length === 0 ? (
          <p className="mt-2 text-sm text-muted">
            No cashback yet. Share your code: when a friend's order is fully paid, the cashback is yours.
          </p>
        ) : (
          <dl className="mt-3 grid grid-cols-3 gap-3 text-center" data-testid="cashback-totals">
            {summary.totals.flatMap((t) =>
              (['pending', 'earned', 'paid'] as const).map((state) => (
                <div key={`${t.currency}-${state}`} className="rounded-xl border border-line p-3">
                  <dt className="text-xs uppercase tracking-wide text-muted">{state}</dt>
                  <dd className="mt-1 font-semibold tabular-nums text-white" data-testid={`cashback-${state}`}>
                    {fmt(t[state], t.currency)}
                  </dd>
                </div>
              )),
            )}
          </dl>
        )}
      </div>
    </div>
  );
}
