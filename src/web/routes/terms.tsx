import { LegalPage } from '../components/legal-page.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { siteConfig } from '../lib/site-config.ts';

const a = 'text-accent-soft underline underline-offset-2 hover:text-white';

/** Spec §2 "Terms": 10 numbered sections. */
export default function TermsPage() {
  usePageMeta('/termsandconditions');
  const { brand, email } = siteConfig();
  return (
    <LegalPage
      title="Terms and Conditions"
      intro={`These terms apply to every website ordered from ${brand}. By placing an order you accept them.`}
      sections={[
        { title: 'Our service', body: <p>We design, develop and deploy new websites. We do not update or redesign existing websites.</p> },
        { title: 'Project timeline', body: <p>A project takes about 30 days. The website is delivered within 4 weeks after you approve the final UI design.</p> },
        { title: 'Advance payment', body: <p>An advance payment of 20% of the total starts the project. Design work begins once the advance has been received.</p> },
        {
          title: 'Final payment and delivery',
          body: <p>The remaining 80% is due before the website link is delivered. Until the final payment is made, the website stays with us.</p>,
        },
        { title: 'No refunds', body: <p>All payments are non-refundable.</p> },
        { title: 'Cancellation', body: <p>Cancellation is not allowed once development has begun.</p> },
        { title: 'Coupons', body: <p>A valid coupon gives a discount on the order. Coupons have an end date and are checked when you pay.</p> },
        { title: 'Payments', body: <p>Payments are processed by a card/UPI payment provider. We never see or store your card details.</p> },
        {
          title: 'Referrals',
          body: (
            <p>
              Referral codes and their rewards are described on the{' '}
              <a href="/referAndEarn" className={a}>
                Refer and Earn
              </a>{' '}
              page.
            </p>
          ),
        },
        {
          title: 'Support and contact',
          body: (
            <p>
              One year of customer support is included after launch. Questions about these terms:{' '}
              <a href={`mailto:${email}`} className={a}>
                {email}
              </a>
              .
            </p>
          ),
        },
      ]}
    />
  );
}
