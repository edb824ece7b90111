import { useEffect } from 'react';
import { AccountDeletedNotice } from '../features/account/account-deleted-notice.tsx';
import { PromoBannerIsland } from '../features/promotion/promo-banner.tsx';
import { Hero } from '../features/landing/hero.tsx';
import { FeatureCard } from '../features/landing/feature-card.tsx';
import { FEATURE_CARDS } from '../features/landing/feature-cards-data.ts';
import { LandingTopBar } from '../features/landing/landing-top-bar.tsx';
import { enhanceFeatureCards } from '../features/landing/enhance-feature-cards.ts';
import { LeadFormIsland } from '../features/leads/lead-form.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { Island } from '../islands/island.tsx';
import { siteConfig } from '../lib/site-config.ts';

/** Spec §2 "Landing page". The route is bare, so it brings its own bars and footer. */
export default function LandingPage() {
  usePageMeta('/');
  // Prerendered, the page is static markup and islands.ts animates the cards; in the router app, this.
  useEffect(() => enhanceFeatureCards(), []);
  return (
    <>
      <AccountDeletedNotice />
      <PromoBannerIsland />
      <Island name="landing-top-bar" hydrate={['scroll']} component={LandingTopBar} props={{}} />
      <Hero />
      <div className="overflow-x-clip">
        {FEATURE_CARDS.map((card, i) => (
          <FeatureCard key={card.id} card={card} index={i} />
        ))}
      </div>
      <section aria-labelledby="community-title" className="relative mx-auto max-w-6xl px-4 pt-10 pb-24">
        <div className="relative overflow-hidden rounded-[2rem] border border-line bg-card px-6 py-14 text-center sm:px-12">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -bottom-32 left-1/2 h-72 w-[40rem] -translate-x-1/2 rounded-full
              bg-[radial-gradient(closest-side,rgba(124,58,237,0.35),transparent)]"
          />
          <h2 id="community-title" className="relative text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Join the growing community
          </h2>
          <p className="relative mx-auto mt-3 max-w-xl text-muted">
            New ventures launch with us every month. Leave your e-mail or phone number and we will reach out to plan your website.
          </p>
          <div className="relative mt-8 flex justify-center text-left">
            <LeadFormIsland />
          </div>
        </div>
      </section>
      <footer className="border-t border-line px-4 py-8 text-sm text-muted">
        <nav aria-label="Legal and help" className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4">
          <p>© 2024 {siteConfig().brand}</p>
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {[
              ['/about', 'About'],
              ['/faqs', 'FAQs'],
              ['/privacypolicy', 'Privacy policy'],
              ['/termsandconditions', 'Terms and conditions'],
            ].map(([to, label]) => (
              <li key={to}>
                <a href={to} className="inline-block py-2 hover:text-white">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </footer>
    </>
  );
}
