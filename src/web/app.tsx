import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { routes } from './routes.tsx';
import { unmountIslands } from './islands/mounted.ts';
import { createQueryClient } from './lib/use-operation.ts';

// The router app: signed-in pages, sign-in, payment and the back office. Prerendered public pages
// do not load it (docs/decisions/074); they hand over to it through openInApp().

type AppRouter = ReturnType<typeof createBrowserRouter>;
let router: AppRouter | null = null;
const queryClient = createQueryClient();

/** Resolves the lazy route modules for a URL (no render): the first render is then the page itself. */
async function loadRoutesFor(location: { pathname: string }) {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async (m) => {
      const lazy = m.route.lazy;
      if (typeof lazy === 'function') Object.assign(m.route, await lazy(), { lazy: undefined });
    }),
  );
}

function render(container: HTMLElement): AppRouter {
  const app = createBrowserRouter(routes);
  const root = createRoot(container);
  // Committed in this task: whatever was in the container never gives way to an empty frame.
  flushSync(() =>
    root.render(
      <StrictMode>
        {/* The screens' reads (useOperation) share one cache; the public pages' islands never load it
            (docs/decisions/300-tanstack-query-behind-use-operation.md). */}
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={app} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
  return app;
}

export async function startApp(): Promise<AppRouter> {
  if (router) return router;
  await loadRoutesFor(window.location);
  router ??= render(document.getElementById('root')!);
  return router;
}

/** Goes to a page of the app with router state; from a prerendered page, the app takes over first. */
export async function openInApp(to: string, state?: unknown) {
  if (router) return router.navigate(to, { state });
  // The prerendered page stays on screen, working, until the next page's code is loaded; then the
  // app takes over in one task (no blank frame in between).
  await loadRoutesFor(new URL(to, window.location.href));
  // Another call may have started the app meanwhile (TS cannot see that across the await).
  const started = router as AppRouter | null;
  if (started) return started.navigate(to, { state });
  window.history.pushState(null, '', to);
  window.history.replaceState({ usr: state ?? null, key: 'island', idx: window.history.length - 1 }, '', to);
  unmountIslands();
  const container = document.getElementById('root')!;
  container.replaceChildren();
  router = render(container);
  return router;
}
