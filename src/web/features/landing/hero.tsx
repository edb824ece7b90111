import { BarePageBarIsland } from '../../components/bare-page-bar.tsx';
import { LeadFormIsland } from '../leads/index.ts';
import { FEATURE_CARDS } from './feature-cards-data.ts';
import { HERO_ID } from './landing-top-bar.tsx';

/** Spec §2 hero: headline, sub-heading, the lead form, 'Reach Out to Us' and the quality links. */
export function Hero() {
  return (
    <header id={HERO_ID} className="relative overflow-hidden" data-testid="hero">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 h-[36rem] w-[60rem] -translate-x-1/2 rounded-full
          bg-[radial-gradient(closest-side,rgba(124,58,237,0.35),transparent)]"
      />
      <BarePageBarIsland
        className="relative"
        links={[
          { to: '/about', label: 'About' },
          { to: '/pricing', label: 'Pricing' },
        ]}
      />
      <div className="relative mx-auto grid max-w-6xl items-center gap-10 px-4 pt-10 pb-16 lg:grid-cols-[1.1fr_0.9fr] lg:pt-16 lg:pb-24">
        <div>
          <h1
            className="bg-gradient-to-br from-white via-white to-accent-soft bg-clip-text text-5xl font-black tracking-tight
              text-transparent sm:text-6xl lg:text-7xl"
          >
            Let&apos;s Innovate Together
          </h1>
          <p className="mt-5 max-w-xl text-xl text-muted sm:text-2xl">Empowering New Ventures with Exceptional Website Solutions</p>
          <LeadFormIsland className="mt-8" />
          <p className="mt-5 text-muted">
            Prefer to talk first?{' '}
            <a href="/contact" className="font-semibold text-accent-soft underline underline-offset-4 hover:text-white">
              Reach Out to Us
            </a>
          </p>
        </div>
        <img
          src="/images/hero.svg"
          alt="A browser window showing a new website with charts and a launch button"
          width={560}
          height={440}
          fetchPriority="high"
          className="mx-auto h-auto w-full max-w-lg max-lg:hidden"
        />
      </div>
      <nav aria-label="What you get" className="relative border-y border-line bg-card/60">
        <ul className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-x-2 gap-y-1 px-4 py-3">
          {FEATURE_CARDS.map((card) => (
            <li key={card.id}>
              <a
                href={`#${card.id}`}
                className="inline-flex min-h-11 items-center gap-2 rounded-full px-3 text-sm font-medium text-ink hover:text-white"
              >
                <span
                  aria-hidden="true"
                  className="h-2.5 w-2.5 rounded-full"
                  style={{ background: card.color, boxShadow: `0 0 12px ${card.glowColor}` }}
                />
                {card.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
