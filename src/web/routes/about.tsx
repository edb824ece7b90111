import { buttonClass } from '../components/ui/button.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { siteConfig } from '../lib/site-config.ts';

/** Spec §2 "About". */
export default function AboutPage() {
  usePageMeta('/about');
  const { brand } = siteConfig();
  return (
    <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 lg:grid-cols-2 lg:py-24">
      <div>
        <p className="text-sm font-semibold tracking-[0.2em] text-accent-soft uppercase">About us</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-white sm:text-5xl">Where Digital Seeds Become Powerful Experiences</h1>
        <div className="mt-6 space-y-4 text-lg leading-relaxed text-muted">
          <h2 className="text-xl font-semibold text-white">About us</h2>
          <p>
            {brand} was founded in 2024 in Bangalore, India, with one idea: every new venture deserves a website that is built for it, not
            squeezed into a template. We design, develop and deploy new websites for individuals and young businesses, in custom code from
            the first screen to the last.
          </p>
          <p>
            Our approach is customer-centric. You approve the design before development starts, you follow every stage of the work on your
            dashboard, and you can talk to us at any time, during the project and for a full year after launch.
          </p>
          <p>Our goal is simple: to make your business digital, with a fast, secure and beautiful website that helps it grow.</p>
        </div>
        <div className="mt-8 flex flex-wrap gap-3">
          <a href="/pricing" className={buttonClass()}>
            See pricing
          </a>
          <a href="/contact" className={buttonClass('secondary')}>
            Contact us
          </a>
        </div>
      </div>
      <div className="relative">
        <div aria-hidden="true" className="absolute inset-10 rounded-full bg-accent-strong/30 blur-3xl" />
        <img
          src="/images/about.svg"
          alt="A seedling growing out of a laptop screen into glowing leaves"
          width={560}
          height={420}
          fetchPriority="high"
          className="relative h-auto w-full rounded-[2rem] border border-line"
        />
      </div>
    </div>
  );
}
