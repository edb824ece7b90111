import { useEffect, useState } from 'react';
import { useSession } from '../../lib/session.tsx';
import { FEATURE_CARDS } from './feature-cards-data.ts';
import { useActiveSection } from './use-active-section.ts';

const SECTION_IDS = FEATURE_CARDS.map((c) => c.id);
export const HERO_ID = 'hero';

/**
 * Spec §2 landing top bar: hidden while the hero is visible, pinned at the top once it scrolls
 * out. Left: the five section links, the active one underlined (only the active one on narrow
 * screens). Right: 'Pricing' (decision 116), 'Contact Sales' and Login/Logout.
 */
export function LandingTopBar() {
  const { isLoggedIn } = useSession();
  const heroVisible = useHeroVisible();
  const active = useActiveSection(SECTION_IDS);
  const shown = !heroVisible;
  return (
    <div
      data-testid="landing-top-bar"
      data-shown={shown}
      aria-hidden={!shown}
      inert={!shown}
      className={`fixed inset-x-0 top-0 z-40 border-b border-line bg-page/90 backdrop-blur transition-transform duration-300
        ${shown ? 'translate-y-0' : 'invisible -translate-y-full'}`}
    >
      <nav aria-label="Landing sections" className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-2.5">
        <ul className="flex min-w-0 items-center gap-1">
          {FEATURE_CARDS.map((card) => {
            const isActive = active === card.id || (active === null && card.id === SECTION_IDS[0]);
            return (
              <li key={card.id} className={isActive ? '' : 'max-lg:hidden'}>
                <a
                  href={`#${card.id}`}
                  aria-current={isActive ? 'true' : undefined}
                  className={`block truncate rounded-lg px-2.5 py-2 text-sm font-medium transition-colors
                  ${isActive ? 'text-white underline decoration-2 underline-offset-8' : 'text-muted hover:text-white'}`}
                  style={isActive ? { textDecorationColor: card.color } : undefined}
                >
                  {card.label}
                </a>
              </li>
            );
          })}
        </ul>
        <div className="flex shrink-0 items-center gap-2">
          {/* Not in the spec's bar: on a phone it shows only the active section, and once the
              offer banner is closed nothing else on the page led to the plan (decision 116). */}
          <a href="/pricing" className="rounded-lg px-2 py-2 text-sm font-medium text-ink hover:text-white">
            Pricing
          </a>
          <a href="/contact" className="rounded-lg bg-accent-strong px-3 py-2 text-sm font-semibold text-white hover:bg-accent-hover">
            Contact Sales
          </a>
          <a
            href={isLoggedIn ? '/logout' : '/login'}
            className="rounded-lg border border-line px-3 py-2 text-sm font-medium text-ink hover:border-accent hover:text-white"
          >
            {isLoggedIn ? 'Logout' : 'Login'}
          </a>
        </div>
      </nav>
    </div>
  );
}

/** Whether any part of the hero (#hero) is on screen; true until known, like the prerendered bar. */
function useHeroVisible(): boolean {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const hero = document.getElementById(HERO_ID);
    if (!hero || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setVisible(Boolean(entry?.isIntersecting)));
    observer.observe(hero);
    return () => observer.disconnect();
  }, []);
  return visible;
}
