import { Link } from 'react-router';
import { useSession } from '../lib/session.tsx';
import { BrandLogo } from './brand-logo.tsx';

/** The slim bar of the bare public pages (pricing, contact, …): logo home and one way onward. */
export function BarePageBar() {
  const { isLoggedIn } = useSession();
  return (
    <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-4">
      <BrandLogo />
      <ul className="flex items-center gap-1 text-sm">
        <li className="max-sm:hidden">
          <Link to="/about" className="rounded-lg px-3 py-2 text-muted hover:text-white">
            About
          </Link>
        </li>
        <li className="max-sm:hidden">
          <Link to="/faqs" className="rounded-lg px-3 py-2 text-muted hover:text-white">
            FAQs
          </Link>
        </li>
        <li>
          <Link to={isLoggedIn ? '/dashboard' : '/login'} className="rounded-lg border border-line px-3 py-2 font-medium text-ink hover:border-accent hover:text-white">
            {isLoggedIn ? 'Dashboard' : 'Login'}
          </Link>
        </li>
      </ul>
    </nav>
  );
}
