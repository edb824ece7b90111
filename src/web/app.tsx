import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { routes } from './routes.tsx';
import { unmountIslands } from './islands/mounted.ts';

// The router app: signed-in pages, sign-in, payment and the back office. Prerendered public pages
// do not load it (docs/decisions/074); they hand over to it through openInApp().

type AppRouter = ReturnType<typeof createBrowserRouter>;
let router: AppRouter | null = null;

export async function startApp(): Promise<AppRouter> {
  if (router) return router;
  const container = document.getElementById('root')!;
  // Resolve the lazy route modules of the current URL first, so that the first render is the page.
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async (m) => {
      const lazy = m.route.lazy;
      if (typeof lazy === 'function') Object.assign(m.route, await lazy(), { lazy: undefined });
    }),
  );
  router = createBrowserRouter(routes);
  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return router;
}

/** Goes to a page of the app with router state; from a prerendered page, the app takes over first. */
export async function openInApp(to: string, state?: unknown) {
  if (router) return router.navigate(to, { state });
  // The prerendered page stays on screen until the app has the next page ready.
  window.history.pushState(null, '', to);
  window.history.replaceState({ usr: state ?? null, key: 'island', idx: window.history.length - 1 }, '', to);
  unmountIslands();
  document.getElementById('root')!.replaceChildren();
  await startApp();
}
