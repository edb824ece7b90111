// From an island to the signed-in app: the router app (React Router and the app shell) loads only
// now, takes over the page and goes to `to` with its router state (e.g. /login with isPricing).
// Inside the router app already, it is a client-side navigation.
export async function goToApp(to: string, state?: unknown) {
  const app = await import('../app.tsx');
  await app.openInApp(to, state);
}
