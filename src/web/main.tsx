import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { routes } from './routes.tsx';
import './styles.css';

async function start() {
  const container = document.getElementById('root')!;
  // Prerendered pages arrive with markup: resolve the lazy route modules of the current URL first
  // so that the first client render matches the server HTML.
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async (m) => {
      const lazy = m.route.lazy;
      if (typeof lazy === 'function') {
        Object.assign(m.route, await lazy(), { lazy: undefined });
      }
    }),
  );
  const router = createBrowserRouter(routes);
  const app = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );
  // Hydrating in a transition lets React yield to the browser between pieces of work, so the
  // prerendered page stays responsive (no long task while it hydrates).
  if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}

void start();
