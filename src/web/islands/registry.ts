import type { ComponentType } from 'react';

// Every island of the prerendered pages and where its code is. islands.ts loads only the ones a
// page has; each is its own chunk, so a page pays only for its own interactive parts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props come from the markup's JSON
type Loader = () => Promise<ComponentType<any>>;

export const ISLANDS = {
  'site-header': () => import('../components/site-header.tsx').then((m) => m.SiteHeader),
  'bare-page-bar': () => import('../components/bare-page-bar.tsx').then((m) => m.BarePageBar),
  'landing-top-bar': () => import('../features/landing/landing-top-bar.tsx').then((m) => m.LandingTopBar),
  'lead-form': () => import('../features/leads/lead-form.tsx').then((m) => m.LeadForm),
  'promo-banner': () => import('../features/promotion/promo-banner.tsx').then((m) => m.PromoBanner),
  'promo-layer': () => import('../features/promotion/promo-layer.tsx').then((m) => m.PromoLayer),
  'chat-launcher': () => import('../features/chat/chat-launcher.tsx').then((m) => m.ChatLauncher),
  'footer-weather': () => import('../features/geo/footer-weather.tsx').then((m) => m.FooterWeather),
  'pricing-plan': () => import('../features/orders/pricing-plan.tsx').then((m) => m.PricingPlan),
  'contact-form': () => import('../features/contact/contact-form.tsx').then((m) => m.ContactForm),
  'referral-box': () => import('../features/referrals/referral-box.tsx').then((m) => m.ReferralBox),
  'referral-end-date': () => import('../features/referrals/referral-end-date.tsx').then((m) => m.ReferralEndDate),
} satisfies Record<string, Loader>;

export type IslandName = keyof typeof ISLANDS;
