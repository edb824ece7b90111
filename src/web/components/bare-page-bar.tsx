import { useSession } from '../lib/session.tsx';
import { useOrderActions } from '../lib/order-actions.ts';
import { WaitingCount } from './waiting-count.tsx';
import { BrandLogo } from './brand-logo.tsx';
import { Island } from '../islands/island.tsx';

interface BarLink {
  to: string;
  label: string;
}

const DEFAULT_LINKS: BarLink[] = [
  { to: '/about', label: 'About' },
  { to: '/faqs', label: 'FAQs' },
];

/** The slim bar of the bare public pages (landing, pricing, contact, …): logo home and onward links. */
export function BarePageBar({ links = DEFAULT_LINKS, className = '' }: { links?: BarLink[]; className?: string }) {
  const { isLoggedIn } = useSession();
  const waiting = useOrderActions(isLoggedIn)?.total ?? 0;
  return (
    <nav aria-label="Main" className={`mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-4 ${className}`}>
      <BrandLogo />
      <ul className="flex items-center gap-1 text-sm">
        {links.map((l) => (
          <li key={l.to} className="max-sm:hidden">
            <a href={l.to} className="rounded-lg px-3 py-2 text-muted hover:text-white">
              {l.label}
            </a>
          </li>
        ))}
        <li>
          <a
            href={isLoggedIn ? '/dashboard' : '/login'}
            className="rounded-lg border border-line px-3 py-2 font-medium text-ink hover:border-accent hover:text-white"
          >
            {isLoggedIn ? 'Dashboard' : 'Login'}
            {isLoggedIn && <WaitingCount count={waiting} />}
          </a>
        </li>
      </ul>
    </nav>
  );
}

/** The bar as an island of a prerendered page (its Login/Dashboard link follows the session). */
export function BarePageBarIsland(props: { links?: BarLink[]; className?: string }) {
  return <Island name="bare-page-bar" hydrate={['session']} component={BarePageBar} props={props} />;
}
