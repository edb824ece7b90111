import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { POPUP_PATHS, popupOpens, rememberDismissed } from './popup-rule.ts';
import { usePromotion } from './use-promotion.ts';

const CouponPopup = lazy(() => import('./coupon-popup.tsx').then((m) => ({ default: m.CouponPopup })));

/**
 * Spec §2/§4 coupon popup: opens once when the page loads while the featured promotion is active,
 * closes on dismiss or checkout; a dismissal holds for the rest of the browser session
 * (docs/decisions/012-promotion-popup.md).
 */
export function PromoLayer() {
  // The page the visitor arrived on (not rendered, so the prerender's lack of a window is harmless).
  const [entryPath] = useState(() => (typeof window === 'undefined' ? '' : window.location.pathname));
  const state = usePromotion(POPUP_PATHS.includes(entryPath));
  const [open, setOpen] = useState(false);
  const promotion = state.status === 'ready' ? state.promotion : null;

  useEffect(() => {
    if (popupOpens(promotion, entryPath, Date.now())) setOpen(true);
  }, [promotion, entryPath]);

  const close = useCallback(() => {
    setOpen(false);
    if (promotion) rememberDismissed(promotion.code);
  }, [promotion]);

  if (!open || !promotion) return null;
  return (
    <Suspense fallback={null}>
      <CouponPopup promotion={promotion} onClose={close} />
    </Suspense>
  );
}
