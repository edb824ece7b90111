import { useState } from 'react';
import { bannerTimerText, countdown } from '../../../domain/promotion.ts';
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
  const timer = promotion ? bannerTimerText(ends, left) : '';
  return (
    <aside
      aria-label="Current offer"
      data-testid="promo-banner"
      className="relative z-30 flex h-14 items-center justify-center bg-gradient-to-r from-[#4c1d95] via-[#6d28d9] to-[#9d174d] px-12
        text-center text-sm text-white sm:h-11"
    >
      <div className="flex flex-col items-center gap-x-3 gap-y-0.5 sm:flex-row">
        {/* Always in the markup, invisible until the promotion is known: the DOM island of the
            prerendered pages fills in these marked parts (promo-banner-dom.ts, decision 115). */}
        <p className="font-medium">
          <span data-promo-offer className={promotion ? undefined : 'invisible'} aria-hidden={promotion ? undefined : true}>
            <strong data-promo-percent>{promotion ? `${promotion.percent}% off` : ''}</strong> with{' '}
            <span className="max-sm:hidden">coupon code </span>
            <strong data-promo-code className="tracking-wider">
              {promotion?.code ?? ''}
            </strong>
          </span>
        </p>
        <p className="flex items-center gap-3">
          <span
            data-testid="promo-countdown"
            aria-live="off"
            className="inline-block min-w-[9.5rem] font-mono tabular-nums"
            data-expired={left ? String(left.expired) : undefined}
          >
            {timer}
          </span>
          <a href="/pricing" hidden={!promotion} className="font-semibold underline underline-offset-2 hover:text-accent-soft">
            See pricing
          </a>
        </p>
      </div>
      <button
        type="button"
        data-promo-close
        aria-label="Close offer banner"
        onClick={() => setClosed(true)}
        className="absolute right-2 top-1/2 inline-flex h-9 w-9 -translate-y-1/2 items-center justify-center rounded-full text-white/90
          hover:bg-white/15 hover:text-white"
      >
        <svg
          viewBox="0 0 24 24"
          className="h-4 w-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.4"
          strokeLinecap="round"
          aria-hidden="true"
        >
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </aside>
  );
}

/** The banner as an island of a prerendered page. */
export const PromoBannerIsland = () => <Island name="promo-banner" hydrate={['featured']} component={PromoBanner} props={{}} />;
