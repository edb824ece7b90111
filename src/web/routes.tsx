import type { RouteObject } from 'react-router';
import { RootLayout } from './shell/root-layout.tsx';
import { RouteError } from './components/route-error.tsx';
import type { RouteHandle } from './components/route-handle.ts';

type PageModule = { default: React.ComponentType };

// Every page is its own chunk (code split by route).
const page = (load: () => Promise<PageModule>, bare: boolean) => ({
  lazy: async () => ({ Component: (await load()).default }),
  handle: { bare } satisfies RouteHandle,
});

/** The route table of spec §2, in its order. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', ...page(() => import('./routes/landing.tsx'), true) },
      { path: '/about', ...page(() => import('./routes/about.tsx'), false) },
      { path: '/pricing', ...page(() => import('./routes/pricing.tsx'), true) },
      { path: '/login', ...page(() => import('./routes/login.tsx'), true) },
      { path: '/logout', ...page(() => import('./routes/logout.tsx'), true) },
      { path: '/signup', ...page(() => import('./routes/signup.tsx'), true) },
      { path: '/signup/emailverify', ...page(() => import('./routes/email-verify.tsx'), true) },
      { path: '/login/emailverify', ...page(() => import('./routes/email-verify.tsx'), true) },
      { path: '/signup/enterDetails', ...page(() => import('./routes/enter-details.tsx'), true) },
      { path: '/contact', ...page(() => import('./routes/contact.tsx'), true) },
      { path: '/getAllRecommendations', ...page(() => import('./routes/recommendations.tsx'), true) },
      { path: '/dashboard', ...page(() => import('./routes/dashboard.tsx'), true) },
      { path: '/status/:id', ...page(() => import('./routes/status.tsx'), true) },
      // A monthly care report of the order (docs/decisions/327-care-reports.md).
      { path: '/status/:id/care/:month', ...page(() => import('./routes/care-report.tsx'), true) },
      { path: '/pay', ...page(() => import('./routes/pay.tsx'), true) },
      { path: '/googleLogin', ...page(() => import('./routes/google-login.tsx'), true) },
      { path: '/microsoftLogin', ...page(() => import('./routes/microsoft-login.tsx'), true) },
      { path: '/referAndEarn', ...page(() => import('./routes/refer-and-earn.tsx'), false) },
      { path: '/privacypolicy', ...page(() => import('./routes/privacy.tsx'), false) },
      { path: '/faqs', ...page(() => import('./routes/faqs.tsx'), false) },
      { path: '/termsandconditions', ...page(() => import('./routes/terms.tsx'), false) },
      // One accepted version, word for word (docs/decisions/272-accepted-terms-readable.md).
      { path: '/termsandconditions/:version', ...page(() => import('./routes/terms-version.tsx'), false) },
      { path: '/chat', ...page(() => import('./routes/guest-chat.tsx'), true) },
      { path: '/adminChat', ...page(() => import('./routes/admin-chat.tsx'), true) },
      { path: '/admin/*', ...page(() => import('./routes/admin.tsx'), true) },
      { path: '*', ...page(() => import('./routes/not-found.tsx'), true) },
    ],
  },
];
