// The signed-in app's service worker (docs/decisions/344-installable-app.md), registered by the
// signed-in pages only (src/web/features/notifications/install.ts) for the scopes /dashboard,
// /status/ and /admin — never for a public page.
//   - Offline: the signed-in pages' HTML and hashed assets come from the cache, and the dashboard
//     shows the last seen order list; any other page falls back to /offline.html.
//   - Personal data stays within the session: only the few answers the dashboard needs offline are
//     kept, each under a key made from the session's token (another session never reads them), and
//     a sign-out deletes them (the page posts `signed-out` and deletes the cache itself too).
//   - Push (docs/decisions/343-web-push.md): shows the notice; a click opens its link.

const SHELL_CACHE = 'app-shell-v1';
const SESSION_CACHE = 'session-data';
const PRECACHE = ['/offline.html', '/manifest.webmanifest', '/icons/app.svg'];
/** The answers kept for the offline dashboard: who is signed in, and their orders. */
const SESSION_APIS = new Set(['/api/v1/auth/verifyToken', '/api/v1/user/getUserById', '/api/v1/order/getAllOrders/user']);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('app-shell-') && n !== SHELL_CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

/** A cache key for `request` within its session: the URL plus a digest of the bearer token. */
async function sessionKey(request) {
  const auth = request.headers.get('authorization') || '';
  if (!auth) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(auth));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${request.url}${request.url.includes('?') ? '&' : '?'}session=${hex}`;
}

async function sessionApi(request) {
  const key = await sessionKey(request);
  try {
    const response = await fetch(request);
    if (key && response.ok) {
      const cache = await caches.open(SESSION_CACHE);
      await cache.put(key, response.clone());
    }
    return response;
  } catch (err) {
    const cached = key ? await caches.match(key, { cacheName: SESSION_CACHE, ignoreVary: true }) : undefined;
    if (cached) return cached;
    throw err;
  }
}

async function page(request) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch {
    return (await cache.match(request, { ignoreSearch: true })) || (await cache.match('/offline.html'));
  }
}

async function asset(request) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (SESSION_APIS.has(url.pathname)) return event.respondWith(sessionApi(request));
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/socket.io/')) return;
  if (request.mode === 'navigate') return event.respondWith(page(request));
  if (url.pathname.startsWith('/assets/')) return event.respondWith(asset(request));
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'signed-out') event.waitUntil(caches.delete(SESSION_CACHE));
});

self.addEventListener('push', (event) => {
  let notice = { title: 'Webcraft Studio', body: 'Something new is waiting for you.', url: '/dashboard', tag: undefined };
  try {
    notice = { ...notice, ...event.data.json() };
  } catch {
    // Not JSON: the default text.
  }
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: '/icons/app.svg',
      badge: '/icons/app.svg',
      data: { url: notice.url, kind: notice.kind },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/dashboard', self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).pathname === target.pathname && 'focus' in w);
      if (open) return open.navigate(target.href).then((w) => (w || open).focus());
      return self.clients.openWindow(target.href);
    }),
  );
});
