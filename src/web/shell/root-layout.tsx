import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import type { RouteHandle } from '../components/route-handle.ts';
import { SessionProvider } from '../lib/session.tsx';
import { SiteHeader } from '../components/site-header.tsx';
import { SiteFooter } from './site-footer.tsx';
import { PromoLayer } from '../features/promotion/promo-layer.tsx';
import { ChatLauncher } from '../features/chat/chat-launcher.tsx';
import { Island } from '../islands/island.tsx';

export function RootLayout() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const bare = handle?.bare ?? true;
  const { pathname } = useLocation();
  // The customer chat widget is for customers: not in the back office.
  const isBackOffice = pathname === '/adminChat' || pathname === '/admin' || pathname.startsWith('/admin/');
  return (
    <SessionProvider>
      <div className="flex min-h-screen flex-col" data-layout={bare ? 'bare' : 'full'}>
        {!bare && (
          <Island name="site-header" hydrate={['session', 'scroll', 'interaction']} component={SiteHeader} props={{ path: pathname }} />
        )}
        <main id="main" className="flex-1">
          <Outlet />
        </main>
        {!bare && <SiteFooter />}
        {/* Room under the last links of every page for the floating "Help & Support" button, so
            scrolling to the end always brings them clear of it. The back
            office has no such button. */}
        {!isBackOffice && <div aria-hidden="true" className="h-20 shrink-0" data-testid="floating-reserve" />}
      </div>
      <Island name="promo-layer" hydrate={['promotion']} component={PromoLayer} props={{}} />
      {!isBackOffice && <Island name="chat-launcher" hydrate={['chat', 'interaction']} component={ChatLauncher} props={{}} />}
      <ScrollRestoration />
    </SessionProvider>
  );
}
