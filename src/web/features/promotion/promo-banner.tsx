import { useState } from 'react';
import { countdown, formatCountdown } from '../../../domain/promotion.ts';
import { usePromotion } from './use-promotion.ts';
import { useNow } from './use-now.ts';
import { Island } from '../../islands/island.tsx';

/**
 * Spec §1/§2 top banner on /, /pricing and /pay: the offer, a live countdown to its end (then
 * 'Offer expired!'), a link to pricing and a close button. The frame is in the prerendered HTML at
 * its final height, so filling it in after load shifts nothing.
 */
export function PromoBanner() {
  const state = usePromotion();
  const [closed, setClosed] = useState(false);
  const promotion = state.status === 'ready' ? state.promotion : null;
  const now = useNow(promotion !== null && !closed);
  if (closed || (state.status === 'ready' && !promotion)) return null;

  const ends = promotion?.endsAt ? Date.parse(promotion.endsAt) : null;
  const left = ends !== null && now !== null ? countdown(ends, now) : null;
  const timer = promotion && ends === null ? 'No end date' : left ? formatCountdown(left) : '';
  return (
    <aside
      aria-label="Current offer"
      data-testid="promo-banner"
      className="relative z-30 flex h-14 items-center justify-center bg-gradient-to-r from-[#4c1d95] via-[#6d28d9] to-[#9d174d] px-12 text-center text-sm text-white sm:h-11"
    >
      <div className="flex flex-col items-center gap-x-3 gap-y-0.5 sm:flex-row">
        <p className="font-medium">
          {promotion ? (
            <>
              <strong>{promotion.percent}% off</strong> with <span className="max-sm:hidden">coupon code </span>
              <strong className="tracking-wider">{promotion.code}</strong>
            </>
          ) : (
            <span aria-hidden="true">&nbsp;</span>
          )}
        </p>
        <p className="flex items-center gap-3">
          <span data-testid="promo-countdown" aria-live="off" className="inline-block min-w-[9.5rem] font-mono tabular-nums" data-expired={left?.expired ?? undefined}>
            {timer}
          </span>
          {promotion && (
            <a href="/pricing" className="font-semibold underline underline-offset-2 hover:text-accent-soft">
              See pricing
            </a>
          )}
        </p>
      </div>
      <button
        type="button"
        aria-label="Close offer banner"
        onClick={() => setClosed(true)}
        className="absolute right-2 top-1/2 inline-flex h-9 w-9 -translate-y-1/2 items-center justify-center rounded-full text-white/90 hover:bg-white/15 hover:text-white"
      >
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </aside>
  );
}

/** The banner as an island of a prerendered page. */
export const PromoBannerIsland = () => <Island name="promo-banner" hydrate={['featured']} component={PromoBanner} props={{}} />;
