import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { isPromotionActive } from '../../../domain/promotion.ts';
import { usePromotion } from './use-promotion.ts';

const CouponPopup = lazy(() => import('./coupon-popup.tsx').then((m) => ({ default: m.CouponPopup })));

// The popup opens at load on the marketing pages only, never over sign-in, payment or dashboards.
export const POPUP_PATHS = ['/', '/about', '/pricing', '/contact', '/faqs', '/referAndEarn', '/privacypolicy', '/termsandconditions', '/getAllRecommendations'];
const DISMISSED_KEY = 'promoPopupDismissed';

function wasDismissed(code: string): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === code;
  } catch {
    return false;
  }
}

/**
 * Spec §2/§4 coupon popup: opens once when the page loads while the featured promotion is active,
 * closes on dismiss or checkout; a dismissal holds for the rest of the browser session
 * (docs/decisions/012-promotion-popup.md).
 */
export function PromoLayer() {
  const { pathname } = useLocation();
  const [entryPath] = useState(pathname);
  const state = usePromotion(POPUP_PATHS.includes(entryPath));
  const [open, setOpen] = useState(false);
  const promotion = state.status === 'ready' ? state.promotion : null;

  useEffect(() => {
    if (!promotion || !POPUP_PATHS.includes(entryPath)) return;
    if (isPromotionActive(promotion.endsAt, Date.now()) && !wasDismissed(promotion.code)) setOpen(true);
  }, [promotion, entryPath]);

  const close = useCallback(() => {
    setOpen(false);
    try {
      if (promotion) sessionStorage.setItem(DISMISSED_KEY, promotion.code);
    } catch {
      // storage may be unavailable (private mode); the popup simply may show again
    }
  }, [promotion]);

  if (!open || !promotion) return null;
  return (
    <Suspense fallback={null}>
      <CouponPopup promotion={promotion} onClose={close} />
    </Suspense>
  );
}
