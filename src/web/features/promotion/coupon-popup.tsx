import { useEffect, useRef, useState } from 'react';
import type { Promotion } from '../../../contract/promotion.ts';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { OfferArt } from './offer-art.tsx';
import { IMAGE_FIRST_MS, popupHeadline } from './popup-rule.ts';

/**
 * Spec §2 "Coupon popup": 'NEW YEAR, NEW WEBSITE', the percentage, the code with a copy button,
 * 'Go to Checkout' (closes, goes to /pricing) and the dismiss link. On small screens image and
 * text share one fixed-size cell, so swapping them moves nothing. On prerendered pages the same
 * markup is a <template> that a DOM island fills in and runs (coupon-popup-dom.ts, decision 115).
 */
export function CouponPopup({ promotion, onClose }: { promotion: Promotion; onClose: () => void }) {
  const [showText, setShowText] = useState(false);
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const timer = window.setTimeout(() => setShowText(true), IMAGE_FIRST_MS);
    const previous = document.activeElement as HTMLElement | null;
    dialogRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  const headline = popupHeadline(promotion);
  return (
    <div
      className="fixed inset-0 z-[250] flex items-center justify-center bg-black/70 p-4 animate-fade-in"
      onClick={onClose}
      data-testid="coupon-popup-backdrop"
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="coupon-popup-title"
        tabIndex={-1}
        data-testid="coupon-popup"
        data-phase={showText ? 'text' : 'image'}
        onClick={(e) => e.stopPropagation()}
        className="group relative grid w-full max-w-[min(44rem,100%)] overflow-hidden rounded-3xl border border-line bg-card shadow-2xl
          shadow-black/70 focus:outline-none sm:grid-cols-[minmax(0,1fr)_minmax(0,1.15fr)]"
      >
        <button
          type="button"
          data-popup-close
          aria-label="Close offer"
          onClick={onClose}
          className="absolute right-3 top-3 z-10 inline-flex h-9 w-9 items-center justify-center rounded-full bg-black/40 text-white
            hover:bg-black/60"
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
        {/* One cell on small screens: the image alone for 2 s, then the text alone (the image is
            hidden at once, never under the text); two columns from 640 px. */}
        <div
          data-testid="coupon-popup-image"
          className="col-start-1 row-start-1 flex items-center justify-center max-sm:group-data-[phase=text]:invisible"
        >
          <OfferArt className="h-full max-h-[22rem] w-full object-cover" />
        </div>
        <div
          data-testid="coupon-popup-text"
          className="col-start-1 row-start-1 flex flex-col items-center justify-center gap-3 p-6 text-center transition-opacity duration-500
            max-sm:pt-16 max-sm:group-data-[phase=image]:invisible max-sm:group-data-[phase=image]:opacity-0 sm:col-start-2"
        >
          <p id="coupon-popup-title" data-popup-headline className="text-sm font-bold tracking-[0.2em] text-accent-soft">
            {headline}
          </p>
          <p data-popup-percent className="text-5xl font-black tracking-tight text-white">{`${promotion.percent}% OFF`}</p>
          <p className="text-sm text-muted">on your new website with the code</p>
          <p
            data-popup-code
            className="rounded-xl border border-line bg-field px-5 py-2 font-mono text-xl font-bold tracking-[0.2em] text-white"
          >
            {promotion.code}
          </p>
          <CopyButton value={promotion.code} />
          <button
            type="button"
            data-popup-checkout
            onClick={() => {
              onClose();
              // A plain page change: /pricing is a prerendered page.
              if (window.location.pathname !== '/pricing') window.location.assign('/pricing');
            }}
            className="mt-1 inline-flex min-h-11 w-full max-w-xs items-center justify-center rounded-xl bg-accent-strong px-5 font-semibold
              text-white hover:bg-accent-hover"
          >
            Go to Checkout
          </button>
          <button
            type="button"
            data-popup-dismiss
            onClick={onClose}
            className="min-h-11 text-sm text-muted underline underline-offset-2 hover:text-white"
          >
            No thanks! I&apos;ll rather pay full price!
          </button>
        </div>
      </div>
    </div>
  );
}
