// The routes registered without a contract operation (docs/decisions/340-mails-in-their-transaction.md,
// "Raw routes"). Every other route with a schema comes from a `defineOperation` in src/contract/,
// registered through lib/route.ts; raw-routes.test.ts fails on an `app.get/post/…` not listed here,
// and on a listed route that is gone.

export interface RawRoute {
  /** The registering file, under src/. */
  file: string;
  method: 'GET' | 'POST';
  /** As the file spells it (under its plugin's prefix). */
  path: string;
  why: string;
}

export const RAW_ROUTES: readonly RawRoute[] = [
  {
    file: 'server/features/auth/social/oidc-routes.ts',
    method: 'GET',
    path: '/auth/oidc/:provider/start',
    why: 'OIDC redirect: the browser is sent to the identity provider (302), no JSON answer to describe',
  },
  {
    file: 'server/features/auth/social/oidc-routes.ts',
    method: 'GET',
    path: '/auth/oidc/:provider/callback',
    why: "OIDC redirect: the identity provider's return, answered by a redirect into the app",
  },
  {
    file: 'server/features/metrics/routes.ts',
    method: 'GET',
    path: '/metrics',
    why: "metrics: Prometheus' text format, for the scraper, not the API",
  },
  {
    file: 'server/features/site-review/script-route.ts',
    method: 'GET',
    path: '/review.js',
    why: 'static file: the review script, built JavaScript',
  },
  { file: 'server/plugins/web.ts', method: 'GET', path: '/*', why: 'static files: the built web app and its prerendered pages' },
  {
    file: 'server/plugins/docs.ts',
    method: 'GET',
    path: '/api/openapi.json',
    why: 'the OpenAPI document itself, made from the operations',
  },
];
