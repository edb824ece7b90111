import type { Promotion } from '../../../contract/promotion.ts';
import { isPromotionActive } from '../../../domain/promotion.ts';

// The popup opens at load on the marketing pages only, never over sign-in, payment or dashboards.
export const POPUP_PATHS = [
  '/',
  '/about',
  '/pricing',
  '/contact',
  '/faqs',
  '/referAndEarn',
  '/privacypolicy',
  '/termsandconditions',
  '/getAllRecommendations',
];
export const DISMISSED_KEY = 'promoPopupDismissed';
/** Spec §9: on small screens the popup's image shows alone for 2 s, then the text. */
export const IMAGE_FIRST_MS = 2000;

/** The popup's heading: the promotion's own description, else the spec's words. */
export const popupHeadline = (promotion: Promotion) => promotion.description?.trim() || 'NEW YEAR, NEW WEBSITE';

/** Remembers for the browser session that the visitor dismissed this promotion's popup. */
export function rememberDismissed(code: string) {
  try {
    sessionStorage.setItem(DISMISSED_KEY, code);
  } catch {
    // storage may be unavailable (private mode); the popup simply may show again
  }
}

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
