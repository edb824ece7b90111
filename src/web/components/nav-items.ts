import type { SessionUser } from '../lib/session.tsx';
import { isBackOffice } from '../../domain/roles.ts';

export interface NavItem {
  to: string;
  label: string;
}

// Spec §2 "Navigation": the public and the logged-in sets, in the spec's order.
const common: NavItem[] = [
  { to: '/about', label: 'About' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/contact', label: 'Contact' },
  { to: '/referAndEarn', label: 'Refer And Earn' },
];

export function navItems(isLoggedIn: boolean, user: SessionUser | null): NavItem[] {
  if (!isLoggedIn) return [...common, { to: '/login', label: 'Login' }];
  return [
    ...common,
    { to: '/dashboard', label: 'Dashboard' },
    // The owner and staff both work in the back office.
    ...(isBackOffice(user?.role) ? [{ to: '/admin', label: 'Admin' }] : []),
    { to: '/logout', label: 'Logout' },
  ];
}
