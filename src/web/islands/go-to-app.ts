// From an island to the signed-in app: the router app (React Router and the app shell) loads only
// now, takes over the page and goes to `to` with its router state (e.g. /login with isPricing).
// Inside the router app already, it is a client-side navigation.
//
// The app's module is handed in by the entry (islands.ts or main.tsx) rather than imported here:
// the app imports the pages, the pages the islands, and an island this module — an import here
// would close that circle.
type AppModule = { openInApp(to: string, state?: unknown): Promise<unknown> };
let loadApp: (() => Promise<AppModule>) | null = null;

export const setAppLoader = (load: () => Promise<AppModule>) => void (loadApp = load);

export async function goToApp(to: string, state?: unknown) {
  if (!loadApp) throw new Error('goToApp before an entry set the app loader');
  const app = await loadApp();
  await app.openInApp(to, state);
}
