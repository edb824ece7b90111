import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { useSession } from '../../lib/session.tsx';
import { adminNavFor } from '../../components/back-office/sections.ts';

const chip = 'rounded-lg border border-line px-3 py-1.5 text-sm text-ink hover:border-accent';

/**
 * The back office frame: a side menu on wide screens; on a phone the sections wrap into rows (a
 * scrolling tab bar hid half of them at the edge). The founder can always go back to the public
 * site and sign out from here.
 */
export function AdminShell({ children, unreadChats }: { children: ReactNode; unreadChats?: number }) {
  // Staff see only their sections (decision 196).
  const sections = adminNavFor(useSession().user?.role);
  return (
    <div className="min-h-screen lg:flex">
      <aside className="border-b border-line bg-card lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0">
        <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 lg:flex-col lg:items-start lg:py-5">
          <Link to="/admin" className="font-bold text-white">
            Back office
          </Link>
          <div className="flex flex-wrap items-center gap-2" data-testid="admin-account">
            <Link to="/adminChat" className={chip} data-testid="admin-chat-link">
              Chats
              {unreadChats ? (
                <span
                  className="ml-2 rounded-full bg-accent-strong px-2 py-0.5 text-xs font-bold text-white"
                  aria-label={`${unreadChats} unread`}
                >
                  {unreadChats}
                </span>
              ) : null}
            </Link>
            <Link to="/admin/settings" className={chip} data-testid="admin-settings-link">
              Settings
            </Link>
            <Link to="/" className={chip}>
              View site
            </Link>
            <Link to="/logout" className={chip}>
              Sign out
            </Link>
          </div>
        </div>
        <nav aria-label="Back office">
          <ul className="flex flex-wrap gap-1 px-2 pb-2 lg:flex-col lg:px-3">
            {sections.map((s) => (
              <li key={s.to} className="shrink-0">
                <NavLink
                  to={s.to}
                  end={s.end}
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-2 text-sm
                    ${isActive ? 'bg-accent-strong font-semibold text-white' : 'text-muted hover:bg-field hover:text-white'}`
                  }
                >
                  {s.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      {/* Long names, e-mails and addresses wrap instead of widening the page. */}
      <div className="min-w-0 flex-1 px-4 py-6 wrap-anywhere sm:px-6 lg:px-10">{children}</div>
    </div>
  );
}
