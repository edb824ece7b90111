import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { BrandLogo } from '../components/brand-logo.tsx';
import { ButtonLink } from '../components/ui/button-link.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { useSession } from '../lib/session.tsx';
import { PersonalDetails } from '../features/account/personal-details.tsx';
import { AccountCard } from '../features/account/account-card.tsx';
import { SessionsCard } from '../features/account/sessions-card.tsx';
import { WhatsAppCard } from '../features/whatsapp/whatsapp-card.tsx';
import { YourDataCard } from '../features/account/your-data-card.tsx';
import { MyOrdersTab } from '../features/orders/my-orders-tab.tsx';
import { useOrderActions } from '../lib/order-actions.ts';
import { WaitingCount } from '../components/waiting-count.tsx';
import { PasskeysCard } from '../features/auth/passkeys-card.tsx';
import { NotificationsPanel } from '../features/notifications/notifications-panel.tsx';
import { useInstallableApp } from '../features/notifications/install.ts';

const tabs = ['Personal Details', 'My Orders'] as const;
type Tab = (typeof tabs)[number];

// Spec §2 "Dashboard": two tabs, an 'Order Now' link to /pricing; logged out → /login (spec §6).
export default function DashboardPage() {
  const session = useSession();
  const [tab, setTab] = useState<Tab>('Personal Details');
  const baseId = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const waiting = useOrderActions(session.isLoggedIn)?.total ?? 0;
  useInstallableApp();

  if (session.loading) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Loading your dashboard" className="h-8 w-8 text-accent" />
      </div>
    );
  }
  if (!session.isLoggedIn) return <Navigate to="/login" replace />;

  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = (tabs.indexOf(tab) + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length;
    setTab(tabs[i]!);
    tabRefs.current[i]?.focus();
  };
  const user = session.user;
  return (
    <div className="mx-auto flex min-h-screen max-w-5xl flex-col px-4 pt-6 pb-28 sm:pt-10">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <BrandLogo />
        <nav aria-label="Account" className="flex items-center gap-2">
          <ButtonLink to="/pricing">Order Now</ButtonLink>
          <Link to="/logout" className="rounded-xl px-4 py-2.5 text-sm font-semibold text-muted hover:text-white">
            Logout
          </Link>
        </nav>
      </header>
      <h1 className="mt-10 text-3xl font-bold tracking-tight text-white wrap-anywhere sm:text-4xl">
        {user?.name ? `Hello, ${user.name.split(' ')[0]}` : 'Your dashboard'}
      </h1>
      <p className="mt-2 text-muted">Your details and the progress of every website you ordered.</p>
      <div role="tablist" aria-label="Dashboard" className="mt-8 flex gap-1 border-b border-line" onKeyDown={onKey}>
        {tabs.map((name, i) => (
          <button
            key={name}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            role="tab"
            type="button"
            id={`${baseId}-tab-${i}`}
            aria-selected={tab === name}
            aria-controls={`${baseId}-panel-${i}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            className={`-mb-px min-h-11 border-b-2 px-4 text-sm font-semibold transition-colors
            ${tab === name ? 'border-accent text-white' : 'border-transparent text-muted hover:text-white'}`}
          >
            {name}
            {name === 'My Orders' && <WaitingCount count={waiting} />}
          </button>
        ))}
      </div>
      <section
        role="tabpanel"
        id={`${baseId}-panel-${tabs.indexOf(tab)}`}
        aria-labelledby={`${baseId}-tab-${tabs.indexOf(tab)}`}
        className={`mt-6 min-w-0
          ${tab === 'Personal Details' ? 'flex flex-col gap-6' : 'rounded-2xl border border-line bg-card p-5 sm:p-8'}`}
      >
        {tab === 'Personal Details' ? (
          user ? (
            // The details can be corrected, then the account's sessions and data.
            <>
              <AccountCard title="Your details" testId="details-card">
                <PersonalDetails user={user} />
              </AccountCard>
              <WhatsAppCard />
              <PasskeysCard />
              <NotificationsPanel />
              <SessionsCard />
              <YourDataCard email={user.email} />
            </>
          ) : (
            <Spinner label="Loading your details" />
          )
        ) : (
          <MyOrdersTab />
        )}
      </section>
    </div>
  );
}
