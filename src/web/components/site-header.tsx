import { useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useSession } from '../lib/session.tsx';
import { BrandLogo } from './brand-logo.tsx';
import { navItems } from './nav-items.ts';
import { useScrolledPast } from './use-scrolled-past.ts';

const HIDE_AT = 200; // spec §2 / §9: the bar hides once scrolled 200 px or more

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium transition-colors ${isActive ? 'bg-accent-strong/20 text-white' : 'text-muted hover:text-white'}`;

export function SiteHeader() {
  const { isLoggedIn, user } = useSession();
  const items = navItems(isLoggedIn, user);
  const scrolled = useScrolledPast(HIDE_AT);
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();

  useEffect(() => setMenuOpen(false), [location.pathname]);

  // Spec §2: the mobile menu locks page scrolling while open.
  useEffect(() => {
    if (!menuOpen) return;
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpen(false);
    window.addEventListener('keydown', onKey);
    return () => {
      document.body.style.overflow = previous;
      window.removeEventListener('keydown', onKey);
    };
  }, [menuOpen]);

  const hidden = scrolled && !menuOpen;
  return (
    <header
      data-testid="site-header"
      data-hidden={hidden}
      className={`sticky top-0 z-40 border-b border-line bg-page/90 backdrop-blur transition-transform duration-300 ${hidden ? '-translate-y-full' : 'translate-y-0'}`}
    >
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <BrandLogo />
        <ul className="hidden items-center gap-1 md:flex">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={linkClass}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="inline-flex h-11 w-11 items-center justify-center rounded-lg border border-line text-ink md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </nav>
      {menuOpen && (
        <div id="mobile-menu" data-testid="mobile-menu" className="fixed inset-x-0 top-[61px] bottom-0 z-40 overflow-y-auto bg-page px-4 py-4 md:hidden animate-fade-in">
          <ul className="flex flex-col gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={({ isActive }) => `block rounded-xl px-4 py-3 text-lg ${isActive ? 'bg-accent-strong text-white' : 'text-ink hover:bg-card'}`}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      )}
    </header>
  );
}
