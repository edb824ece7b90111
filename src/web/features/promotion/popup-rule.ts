import type { Promotion } from '../../../contract/promotion.ts';
import { isPromotionActive } from '../../../domain/promotion.ts';

// The popup opens at load on the marketing pages only, never over sign-in, payment or dashboards.
export const POPUP_PATHS = ['/', '/about', '/pricing', '/contact', '/faqs', '/referAndEarn', '/privacypolicy', '/termsandconditions', '/getAllRecommendations'];
export const DISMISSED_KEY = 'promoPopupDismissed';

function wasDismissed(code: string): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === code;
  } catch {
    return false;
  }
}

/** Whether the coupon popup opens for this promotion on a page first opened at `entryPath`. */
export const popupOpens = (promotion: Promotion | null, entryPath: string, nowMs: number) =>
  promotion !== null && POPUP_PATHS.includes(entryPath) && isPromotionActive(promotion.endsAt, nowMs) && !wasDismissed(promotion.code);
