import { PageHeading } from '../components/page-heading.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { ReferralBox } from '../features/referrals/referral-box.tsx';
import { ReferralEndDate } from '../features/referrals/referral-end-date.tsx';
import { Island } from '../islands/island.tsx';
import { DEFAULT_CURRENCY } from '../../domain/currencies.ts';
import { formatMoney } from '../../domain/money.ts';
import { REFERRAL_PERCENT, cashbackCap } from '../../domain/referral.ts';

// Spec §2's "up to 50 times the currency factor" is the amount (50 × factor), said as money
// (decision 121): in US dollars on the prerendered page, in the visitor's own
// currency in the signed-in panel beside their code.
const CAP_IN_DEFAULT = formatMoney(cashbackCap(DEFAULT_CURRENCY), DEFAULT_CURRENCY);

/** Spec §2 "Referral page": the code or 'LOGIN TO VIEW', the reward and the terms. */
export default function ReferAndEarnPage() {
  usePageMeta('/referAndEarn');
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 lg:py-24">
      <PageHeading eyebrow="Refer and earn" title="Share your code, earn cashback">
        Your friend saves {REFERRAL_PERCENT}% on their website and you earn the same amount back: up to {CAP_IN_DEFAULT} per referred order,
        or the same in your currency (shown with your code once you sign in).
      </PageHeading>
      <Island name="referral-box" hydrate={['session']} component={ReferralBox} props={{}} />
      <section aria-labelledby="referral-terms" className="mt-10">
        <h2 id="referral-terms" className="text-2xl font-semibold text-white">
          Terms
        </h2>
        <ul className="mt-4 list-disc space-y-2 pl-5 text-muted">
          <li>
            The customer gets a {REFERRAL_PERCENT}% discount and the referrer gets cashback equal to that discount, up to {CAP_IN_DEFAULT}{' '}
            (or the same in the order's currency) per order.
          </li>
          <li>The code must be applied during the advance payment.</li>
          <li>Only complete payments qualify.</li>
          <li>The code can be reused.</li>
          <li>A user may not use their own code.</li>
          <Island name="referral-end-date" hydrate={['visible']} as="li" component={ReferralEndDate} props={{}} />
        </ul>
      </section>
    </div>
  );
}
