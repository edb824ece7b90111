import { Outlet, ScrollRestoration, useMatches } from 'react-router';
import type { RouteHandle } from '../routes.tsx';
import { SessionProvider } from '../lib/session.tsx';
import { SiteHeader } from './site-header.tsx';
import { SiteFooter } from './site-footer.tsx';
import { PromoLayer } from '../features/promotion/promo-layer.tsx';
import { ChatLauncher } from '../features/chat/chat-launcher.tsx';

export function RootLayout() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const bare = handle?.bare ?? true;
  return (
    <SessionProvider>
      <div className="flex min-h-screen flex-col" data-layout={bare ? 'bare' : 'full'}>
        {!bare && <SiteHeader />}
        <main id="main" className="flex-1">
          <Outlet />
        </main>
        {!bare && <SiteFooter />}
      </div>
      <PromoLayer />
      <ChatLauncher />
      <ScrollRestoration />
    </SessionProvider>
  );
}
