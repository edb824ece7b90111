import type { ComponentType } from 'react';
import type { IslandName } from './islands/island-names.ts';

// Every island of the prerendered pages and where its code is. islands.ts loads only the ones a
// page has; each is its own chunk, so a page pays only for its own interactive parts.
//
// Two kinds (docs/decisions/115):
// - `react`: hydrated by React, which loads with it — only on the visitor's first interaction (or
//   at once for a signed-in visitor or one with a chat);
// - `dom`: what a page shows before any interaction (the countdown, prices in the visitor's
//   currency, the weather line, the referral end date, the coupon popup) is a few lines of plain DOM
//   code working on the prerendered markup, so that no page loads React without being asked to.
//   The React component stays the one source of the markup (prerender) and runs as such in the
//   router app (/pay's banner).

/** A DOM island: takes over its prerendered element; `props` come from the markup's JSON. */
export type DomIsland = (el: HTMLElement, props: object) => void;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props come from the markup's JSON
export type IslandLoader = { react: () => Promise<ComponentType<any>> } | { dom: () => Promise<DomIsland> };

export const ISLANDS: Record<IslandName, IslandLoader> = {
  'site-header': { react: () => import('./components/site-header.tsx').then((m) => m.SiteHeader) },
  'bare-page-bar': { react: () => import('./components/bare-page-bar.tsx').then((m) => m.BarePageBar) },
  'landing-top-bar': { react: () => import('./features/landing/landing-top-bar.tsx').then((m) => m.LandingTopBar) },
  'lead-form': { react: () => import('./features/leads/lead-form.tsx').then((m) => m.LeadForm) },
  'promo-banner': { dom: () => import('./features/promotion/promo-banner-dom.ts').then((m) => m.runPromoBanner) },
  'promo-layer': { dom: () => import('./features/promotion/coupon-popup-dom.ts').then((m) => m.openCouponPopup) },
  'chat-launcher': { react: () => import('./features/chat/chat-launcher.tsx').then((m) => m.ChatLauncher) },
  'footer-weather': { dom: () => import('./features/geo/footer-weather-dom.ts').then((m) => m.runFooterWeather) },
  'pricing-plan': { dom: () => import('./features/orders/pricing-plan-dom.ts').then((m) => m.runPricingPlan) },
  'contact-form': { react: () => import('./features/contact/contact-form.tsx').then((m) => m.ContactForm) },
  'referral-box': { react: () => import('./features/referrals/referral-box.tsx').then((m) => m.ReferralBox) },
  'referral-end-date': { dom: () => import('./features/referrals/referral-end-date-dom.ts').then((m) => m.runReferralEndDate) },
};
