import { CURRENCIES, DEFAULT_CURRENCY, parseCurrencyTable } from '../../../domain/currencies.ts';
import { MAINTENANCE_COVERAGE, maintenancePriceText } from '../../../domain/maintenance-plan.ts';
import { formatMoney } from '../../../domain/money.ts';
import { ADVANCE_PERCENT, PLATFORM_FEE_PERCENT, quote } from '../../../domain/pricing.ts';
import type { Config } from '../../config.ts';

// What the assistant knows: the site's own content (spec §1, §2, §9), written once here so the
// answers say what the pages say. Prices are computed with the same quote() the checkout uses, so
// the assistant never quotes a stale number.
export interface Passage {
  id: string;
  title: string;
  /** Where a visitor reads more. */
  url: string;
  text: string;
  /** Extra search words that do not read well in the text. */
  keywords?: string;
}

export interface Promotion {
  code: string;
  percent: number;
  validUntil: Date | null;
}

export interface KnowledgeInput {
  config: Pick<Config, 'BRAND_NAME' | 'BRAND_ADDRESS' | 'BRAND_PHONE' | 'BRAND_EMAIL' | 'FOUNDER_NAME'> &
    Partial<Pick<Config, 'MAINTENANCE_MONTHLY_PRICE' | 'CURRENCY_TABLE' | 'TAX_REGIME' | 'PRICES_INCLUDE_TAX'>>;
  promotions: Promotion[];
  entries: { id: string; title: string; body: string }[];
  now?: Date;
}

const longDate = (d: Date) => d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

function pricingPassages(): Passage[] {
  const usd = quote(DEFAULT_CURRENCY);
  const money = (minor: number) => formatMoney(minor, DEFAULT_CURRENCY);
  const others = CURRENCIES.filter((c) => c.code !== DEFAULT_CURRENCY.code)
    .map((c) => `${formatMoney(quote(c).price, c).trim()} (${c.code})`)
    .join(', ');
  return [
    {
      id: 'pricing',
      title: 'Pricing',
      url: '/pricing',
      keywords: 'cost price how much charge fee plan flat usd dollar budget expensive cheap rate',
      text:
        `A website costs ${money(usd.price)} per website with our flat plan (Limited Launch Special; list price ${money(usd.listPrice)}). ` +
        `A ${PLATFORM_FEE_PERCENT}% platform fee is added, so the total is ${money(usd.total)}: ` +
        `${money(usd.advance)} advance (${ADVANCE_PERCENT}%) when you order and ${money(usd.remaining)} at the end. ` +
        `In other currencies the plan price is ${others}.`,
    },
    {
      id: 'plan',
      title: 'What the plan includes',
      url: '/pricing',
      keywords: 'include included features screens pages apis deployment hosting',
      text:
        'The plan includes delivery in 1 month, high-quality UI/UX, deployment, custom code with no no-code software, ' +
        'high performance, 1 year of customer support, and up to 50 screens and 30 APIs.',
    },
  ];
}

/**
 * The maintenance plan with its configured price (MAINTENANCE_MONTHLY_PRICE, in the words of /pricing
 * and the terms: docs/decisions/267-maintenance-price-everywhere.md), so "how much is maintenance?" is answered.
 */
function maintenancePassage(config: KnowledgeInput['config']): Passage {
  const table = config.CURRENCY_TABLE ? parseCurrencyTable(config.CURRENCY_TABLE) : CURRENCIES;
  const price = maintenancePriceText(
    config.MAINTENANCE_MONTHLY_PRICE ?? 49,
    table,
    config.TAX_REGIME === 'gst',
    config.PRICES_INCLUDE_TAX === true,
  );
  return {
    id: 'maintenance',
    title: 'Maintenance plan',
    url: '/pricing',
    keywords: 'maintenance maintain plan monthly month subscription subscribe how much cost price after first year upkeep updates fixes',
    text:
      `After the included year of support, the monthly maintenance plan costs ${price}: ${MAINTENANCE_COVERAGE}. ` +
      'Subscribe from the Support tab of your order. Subscribed during the included year, it starts when that year ends and nothing is charged before; cancel at the end of any month.',
  };
}

function promotionPassages(promotions: Promotion[], now: Date): Passage[] {
  return promotions.map((p) => {
    const active = !p.validUntil || p.validUntil > now;
    const until = p.validUntil ? ` until ${longDate(p.validUntil)}` : '';
    return {
      id: `promo-${p.code}`,
      title: 'Coupons and discounts',
      url: '/pricing',
      keywords: 'coupon code discount promotion sale deal promo',
      text: active
        ? `Use coupon code ${p.code} for ${p.percent}% off${until}. Enter it in the coupon field on the payment page and press Apply.`
        : `The ${p.code} offer (${p.percent}% off) ended on ${p.validUntil ? longDate(p.validUntil) : 'its end date'}. A valid coupon gives a discount on the payment page.`,
    };
  });
}

export function sitePassages({ config, promotions, entries, now = new Date() }: KnowledgeInput): Passage[] {
  const brand = config.BRAND_NAME;
  return [
    {
      id: 'services',
      title: 'Services',
      url: '/about',
      keywords: 'services offer do provide build make website design development',
      text:
        `${brand} designs, develops and deploys new websites for individuals and new businesses. ` +
        'We build new websites only; we do not update or redesign existing sites.',
    },
    {
      id: 'about',
      title: 'About us',
      url: '/about',
      keywords: 'who company founded team founder history location located based city bangalore india',
      text:
        `${brand} was founded in 2024 in Bangalore, India. We take a customer-centric approach and our goal is to make ` +
        `your business digital. ${config.FOUNDER_NAME} answers the live chat personally.`,
    },
    ...pricingPassages(),
    ...promotionPassages(promotions, now),
    {
      id: 'customise',
      title: 'Customisation',
      url: '/faqs',
      keywords: 'customise customize custom customization design own change colors unique template',
      text:
        'Yes, every website is custom-designed and written in custom code (no no-code tools or templates). ' +
        'You discuss the design with us in the UI discussion and review stages before development starts, and every site is responsive.',
    },
    {
      id: 'delivery',
      title: 'Delivery time',
      url: '/faqs',
      keywords: 'how long time days weeks deliver delivery when fast quick timeline',
      text: 'A project takes about 30 days: we deliver within 4 weeks after your final UI approval.',
    },
    {
      id: 'payments',
      title: 'Payments',
      url: '/termsandconditions',
      keywords: 'pay payment advance final remaining upi card installment razorpay',
      text:
        'You pay a 20% advance when you order, and design starts after it. The remaining 80% is paid from the order status page ' +
        'before the website link is delivered. Payments go through a card/UPI payment provider.',
    },
    {
      id: 'refunds',
      title: 'Refunds and cancellation',
      url: '/termsandconditions',
      keywords: 'refund cancel cancellation money back',
      text: 'An order cancelled before design work starts ("UI Started") has its advance refunded in full; once design work has started, payments are non-refundable. To cancel, write to us before the website is delivered.',
    },
    {
      id: 'terms',
      title: 'Terms and conditions',
      url: '/termsandconditions',
      keywords: 'terms conditions agreement link ownership',
      text:
        'The project takes about 30 days and an advance payment starts it. The final payment is due before the site link is delivered, ' +
        'and the site stays with us until then. A valid coupon gives a discount. Referral details are on the referral page.',
    },
    {
      id: 'tracking',
      title: 'Order tracking',
      url: '/dashboard',
      keywords: 'track progress status dashboard stage order',
      text:
        'After the advance payment you can follow your order on the dashboard: a tracker shows 15 stages from Advance Payment ' +
        'through UI design, development, deployment and reviews to Website Delivery.',
    },
    {
      id: 'seo',
      title: 'SEO',
      url: '/faqs',
      keywords: 'seo search engine google ranking',
      text: 'We apply search-engine-friendly practices to every site; advanced SEO would be a separate service.',
    },
    {
      id: 'support',
      title: 'Support',
      url: '/faqs',
      keywords: 'support help after launch year',
      text: 'Every website comes with one year of customer support. After it, the monthly maintenance plan keeps your website covered.',
    },
    maintenancePassage(config),
    {
      id: 'quality',
      title: 'Why choose us',
      url: '/',
      keywords: 'features fast delivery precise design great performance custom code top notch service quality speed security responsive',
      text:
        'Fast Delivery, Precise Design, Great Performance, Custom Code (no no-code tools) and Top-Notch Service: ' +
        'responsive design, speed and security are part of every site.',
    },
    {
      id: 'referral',
      title: 'Refer and earn',
      url: '/referAndEarn',
      keywords: 'referral refer earn friend cashback reward code',
      text:
        "With a referral code the customer gets a 5% discount and the referrer gets cashback equal to it, up to $50 per order (the same in the order's currency: 50 × its factor). " +
        'The code must be applied during the advance payment, only complete payments qualify, the code can be reused, ' +
        'you may not use your own code, and the programme is valid until January 31, 2025.',
    },
    {
      id: 'privacy',
      title: 'Privacy',
      url: '/privacypolicy',
      keywords: 'privacy data personal information gdpr delete collect sell',
      text:
        'We collect your name, e-mail, business address, phone, and usage and log data (IP, browser, access times, pages viewed). ' +
        `We do not sell your data, and you may access, correct or delete it by writing to ${config.BRAND_EMAIL}. Last updated 22/10/2024.`,
    },
    {
      id: 'contact',
      title: 'Contact',
      url: '/contact',
      keywords: 'contact phone email address reach call office located location person human talk',
      text:
        `You can reach us at ${config.BRAND_EMAIL} or ${config.BRAND_PHONE}; our address is ${config.BRAND_ADDRESS}. ` +
        "You can also use the contact form or talk to a person in the 'Chat with our team' tab.",
    },
    {
      id: 'signin',
      title: 'Signing in',
      url: '/login',
      keywords: 'login sign in account signup register otp code google microsoft',
      text: 'You can sign in or sign up with a one-time code sent to your e-mail, or with a Google or Microsoft account.',
    },
    ...entries.map((e) => ({ id: `entry-${e.id}`, title: e.title, url: '/faqs', text: e.body })),
  ];
}
