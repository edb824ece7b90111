// The Terms and Conditions as data (spec §2 "Terms", 10 numbered sections). The page renders this
// and the server hashes it into TERMS_VERSION, the version a customer accepts at checkout
// (decision 146): one source, so the recorded version is the text that was on the page.
// `{brand}` and `{email}` are filled in from the site configuration when shown; the version covers
// the wording, not those settings. Changing any word here makes a new version.

/** A run of text, or a link. */
export type TermsPart = string | { text: string; href: string };

export interface TermsSection {
  title: string;
  body: readonly TermsPart[];
}

export const TERMS_INTRO = 'These terms apply to every website ordered from {brand}. By placing an order you accept them.';

export const TERMS_SECTIONS: readonly TermsSection[] = [
  { title: 'Our service', body: ['We design, develop and deploy new websites. We do not update or redesign existing websites.'] },
  {
    title: 'Project timeline',
    body: ['A project takes about 30 days. The website is delivered within 4 weeks after you approve the final UI design.'],
  },
  {
    title: 'Advance payment',
    body: ['An advance payment of 20% of the total starts the project. Design work begins once the advance has been received.'],
  },
  {
    title: 'Final payment and delivery',
    body: ['The remaining 80% is due before the website link is delivered. Until the final payment is made, the website stays with us.'],
  },
  // The refund rule the back office offers as a cancel's default (src/domain/cancel.ts, docs/decisions/321-cancel-and-refund.md).
  {
    title: 'Refunds',
    body: [
      'If an order is cancelled before design work starts (the "UI Started" step of your progress tracker), the advance is refunded in full. Once design work has started, payments are non-refundable. A refund goes back to the card or UPI account you paid with.',
    ],
  },
  {
    title: 'Cancellation',
    body: [
      'To cancel an order before its website is delivered, write to ',
      { text: '{email}', href: 'mailto:{email}' },
      '. Nothing more is due on a cancelled order.',
    ],
  },
  { title: 'Coupons', body: ['A valid coupon gives a discount on the order. Coupons have an end date and are checked when you pay.'] },
  { title: 'Payments', body: ['Payments are processed by a card/UPI payment provider. We never see or store your card details.'] },
  {
    title: 'Referrals',
    body: ['Referral codes and their rewards are described on the ', { text: 'Refer and Earn', href: '/referAndEarn' }, ' page.'],
  },
  {
    title: 'Support and contact',
    body: [
      'One year of customer support is included after launch. Questions about these terms: ',
      { text: '{email}', href: 'mailto:{email}' },
      '.',
    ],
  },
];

/** The canonical text the version is computed from (stable: a JSON of the wording above). */
export const termsCanonicalText = () => JSON.stringify({ intro: TERMS_INTRO, sections: TERMS_SECTIONS });

/** Fills `{brand}` and `{email}`. */
export const fillTerms = (s: string, v: { brand: string; email: string }) =>
  s.replaceAll('{brand}', v.brand).replaceAll('{email}', v.email);
