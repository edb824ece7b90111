import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useSession } from '../lib/session.tsx';
import { useOrderActions } from '../lib/order-actions.ts';
import { WaitingCount } from './waiting-count.tsx';
import { BrandLogo } from './brand-logo.tsx';
import { navItems } from './nav-items.ts';
import { useScrolledPast } from './use-scrolled-past.ts';

const HIDE_AT = 200; // spec §2 / §9: the bar hides once scrolled 200 px or more

const linkClass = (isActive: boolean) =>
  `rounded-lg px-3 py-2 text-sm font-medium transition-colors ${isActive ? 'bg-accent-strong/20 text-white' : 'text-muted hover:text-white'}`;

/**
 * The shared header (spec §2). An island on prerendered pages: plain links (a page change is a
 * page load), `path` says which item is current.
 */
export function SiteHeader({ path }: { path: string }) {
  const { isLoggedIn, user } = useSession();
  const items = navItems(isLoggedIn, user);
  const waiting = useOrderActions(isLoggedIn)?.total ?? 0;
  const scrolled = useScrolledPast(HIDE_AT);
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuTop, setMenuTop] = useState(0);
  const headerRef = useRef<HTMLElement>(null);

  // A new page (in the router app) closes the menu; set during render, not in an effect, so that a
  // tap replayed right after hydration is not undone by a mount effect.
  const [menuPath, setMenuPath] = useState(path);
  if (menuPath !== path) {
    setMenuPath(path);
    setMenuOpen(false);
  }

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

  const toggleMenu = () => {
    // The panel starts where the header ends, measured now (the header may sit below other bars).
    setMenuTop(headerRef.current?.getBoundingClientRect().bottom ?? 0);
    setMenuOpen((o) => !o);
  };

  const hidden = scrolled && !menuOpen;
  return (
    <header
      ref={headerRef}
      data-testid="site-header"
      data-hidden={hidden}
      className={`sticky top-0 z-40 border-b border-line bg-page/90 backdrop-blur transition-transform duration-300
        ${hidden ? '-translate-y-full' : 'translate-y-0'}`}
    >
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <BrandLogo />
        <ul className="hidden items-center gap-1 md:flex">
          {items.map((item) => (
            <li key={item.to}>
              <a href={item.to} aria-current={item.to === path ? 'page' : undefined} className={linkClass(item.to === path)}>
                {item.label}
                {item.to === '/dashboard' && <WaitingCount count={waiting} />}
              </a>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="relative inline-flex h-11 w-11 items-center justify-center rounded-lg border border-line text-ink md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={toggleMenu}
        >
          <svg
            width="22"
            height="22"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            aria-hidden="true"
          >
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
          {!menuOpen && waiting > 0 && <span className="absolute -right-1 -top-1 h-3 w-3 rounded-full bg-danger" aria-hidden="true" />}
        </button>
      </nav>
      {/* Portalled to <body>: inside the header, whose backdrop-blur and translate make it the
          containing block of `fixed`, the panel was 32 px tall on phones. */}
      {menuOpen &&
        createPortal(
          <div
            id="mobile-menu"
            data-testid="mobile-menu"
            style={{ top: menuTop }}
            className="fixed inset-x-0 bottom-0 z-40 overflow-y-auto bg-page px-4 py-4 md:hidden animate-fade-in"
          >
            <ul className="flex flex-col gap-1">
              {items.map((item) => (
                <li key={item.to}>
                  <a
                    href={item.to}
                    aria-current={item.to === path ? 'page' : undefined}
                    className={`block rounded-xl px-4 py-3 text-lg
                    ${item.to === path ? 'bg-accent-strong text-white' : 'text-ink hover:bg-card'}`}
                  >
                    {item.label}
                    {item.to === '/dashboard' && <WaitingCount count={waiting} />}
                  </a>
                </li>
              ))}
            </ul>
          </div>,
          document.body,
        )}
    </header>
  );
}
