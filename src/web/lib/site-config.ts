import type { PublicSiteConfig } from '../../contract/site.ts';

// Must equal SITE_CONFIG_ELEMENT_ID of src/contract/site.ts. Not imported as a value: that module
// builds zod schemas at load time and would pull zod (~60 KB) into every page (the page-JS budget, decision 115).
const SITE_CONFIG_ELEMENT_ID = 'site-config';

// The server writes the public configuration into every page as
// <script type="application/json" id="site-config">; a JSON script is data, not code, so the CSP
// stays strict. During prerendering (no DOM) and in the Vite dev server the defaults apply.
const defaults: PublicSiteConfig = {
  brand: 'Webcraft Studio',
  address: 'HSR Layout, Bangalore, India - 560103',
  phone: '+91 00000 00000',
  email: 'support@example.com',
  founder: 'Our founder',
  social: {
    whatsapp: 'https://wa.me/910000000000',
    facebook: 'https://www.facebook.com/',
    linkedin: 'https://www.linkedin.com/',
    youtube: 'https://www.youtube.com/',
    twitter: 'https://x.com/',
    instagram: 'https://www.instagram.com/',
  },
  signIn: { google: false, microsoft: false },
  payments: 'test',
  referralValidUntil: null,
  assistantModel: null,
  invoiceRetentionYears: '8',
  taxNote: '',
  maintenancePrice: '$49.00 a month',
  defaultPhoneCountry: { code: 'IN', name: 'India', phone_code: '91' },
};

let cached: PublicSiteConfig | undefined;

export function siteConfig(): PublicSiteConfig {
  if (cached) return cached;
  // The prerender (scripts/prerender.mjs) passes the build-time configuration this way.
  if (typeof document === 'undefined') return (globalThis as { __SITE_CONFIG__?: PublicSiteConfig }).__SITE_CONFIG__ ?? defaults;
  const el = document.getElementById(SITE_CONFIG_ELEMENT_ID);
  try {
    cached = el?.textContent ? { ...defaults, ...(JSON.parse(el.textContent) as PublicSiteConfig) } : defaults;
  } catch {
    cached = defaults;
  }
  return cached;
}
