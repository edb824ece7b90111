// Titles and descriptions of the public pages: used by the prerender (real <head> tags in the
// HTML) and by usePageMeta on client-side navigation. '{brand}' is the configured brand name.
export interface PageMeta {
  title: string;
  description: string;
  /** Listed in sitemap.xml and prerendered. */
  indexable: boolean;
}

export const PAGE_META: Record<string, PageMeta> = {
  '/': {
    title: "{brand} — Let's Innovate Together | Custom websites for new ventures",
    description:
      'Custom-coded, fast and secure websites for new businesses: designed with you, delivered within 4 weeks of UI approval, with a year of support. Flat pricing.',
    indexable: true,
  },
  '/about': {
    title: 'About us — {brand}',
    description:
      'Founded in 2024 in Bangalore, we build custom websites for new ventures with a customer-centric approach, taking your business digital.',
    indexable: true,
  },
  '/pricing': {
    title: 'Pricing — one flat price per website | {brand}',
    description:
      'One flat price per website: up to 50 screens and 30 APIs, high-quality UI/UX, deployment and 1 year of support. Pay 20% in advance, the rest at the end.',
    indexable: true,
  },
  '/contact': {
    title: 'Contact us — {brand}',
    description: 'Tell us about your project: send a message, call or e-mail us, and we will reach out to you.',
    indexable: true,
  },
  '/faqs': {
    title: 'FAQs — {brand}',
    description: 'Answers about our website service: what is included, delivery time, payments, progress tracking, SEO and support.',
    indexable: true,
  },
  '/referAndEarn': {
    title: 'Refer and earn — {brand}',
    description: 'Share your referral code: your friend gets 5% off their website and you get the same amount as cashback.',
    indexable: true,
  },
  '/privacypolicy': {
    title: 'Privacy policy — {brand}',
    description: 'What personal data we collect, why, and your rights to access, correct or delete it.',
    indexable: true,
  },
  '/termsandconditions': {
    title: 'Terms and conditions — {brand}',
    description: 'The terms of our website-building service: timeline, payments, coupons and referrals.',
    indexable: true,
  },
  '/getAllRecommendations': {
    title: 'Get expert suggestions — {brand}',
    description: 'Complete your details and our team will suggest the right website for your business.',
    indexable: false,
  },
};

export const metaFor = (path: string, brand: string) => {
  const meta = PAGE_META[path];
  if (!meta) return undefined;
  return { ...meta, title: meta.title.replaceAll('{brand}', brand), description: meta.description.replaceAll('{brand}', brand) };
};
