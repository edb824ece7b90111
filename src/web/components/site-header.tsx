import { Link, NavLink } from 'react-router';

const publicNav = [
  { to: '/about', label: 'About' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/contact', label: 'Contact' },
  { to: '/referAndEarn', label: 'Refer And Earn' },
  { to: '/login', label: 'Login' },
];

export function SiteHeader() {
  return (
    <header data-testid="site-header" className="border-b border-line bg-page/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="text-lg font-bold text-white">
          Webcraft Studio
        </Link>
        <ul className="flex flex-wrap gap-4 text-sm">
          {publicNav.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={({ isActive }) => (isActive ? 'text-white underline' : 'text-muted hover:text-white')}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
