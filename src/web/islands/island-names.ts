// The names of the islands of the prerendered pages (docs/decisions/074). Kept apart from the
// registry of their code (registry.ts), so that <Island> can name one without importing the islands
// themselves: the registry imports the components, and the components use <Island>.
export const ISLAND_NAMES = [
  'site-header',
  'bare-page-bar',
  'landing-top-bar',
  'lead-form',
  'promo-banner',
  'promo-layer',
  'chat-launcher',
  'footer-weather',
  'pricing-plan',
  'contact-form',
  'referral-box',
  'referral-end-date',
] as const;

export type IslandName = (typeof ISLAND_NAMES)[number];
