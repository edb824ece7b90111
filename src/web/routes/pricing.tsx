import { BarePageBarIsland } from '../components/bare-page-bar.tsx';
import { PromoBannerIsland } from '../features/promotion/promo-banner.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { PricingPlan } from '../features/orders/pricing-plan.tsx';
import { Island } from '../islands/island.tsx';
import { MaintenancePlanNote } from '../features/support/maintenance-plan-note.tsx';

/** Spec §2 "Pricing": one plan card; the button goes to /pay (signed in) or /login (visitor). */
export default function PricingPage() {
  usePageMeta('/pricing');
  return (
    <>
      <PromoBannerIsland />
      <BarePageBarIsland />
      <div className="relative mx-auto max-w-6xl px-4 pt-10 pb-24">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute top-0 left-1/2 h-96 w-full max-w-3xl -translate-x-1/2 rounded-full
            bg-[radial-gradient(closest-side,rgba(124,58,237,0.3),transparent)]"
        />
        <div className="relative text-center">
          <h1 className="text-4xl font-black tracking-tight text-white sm:text-6xl">Discover our flat pricing</h1>
          <p className="mt-4 text-xl text-muted">Get your website today</p>
        </div>
        <Island name="pricing-plan" hydrate={['load']} component={PricingPlan} props={{}} />
        <MaintenancePlanNote />
      </div>
    </>
  );
}
