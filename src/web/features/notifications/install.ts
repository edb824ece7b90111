import { useEffect } from 'react';

// The installable app (docs/decisions/344-installable-app.md): the signed-in pages (dashboard, an
// order's page, the back office and its chat console) add the manifest and register the service
// worker for their scopes. No public page imports this: they load no service worker and keep their
// JavaScript budget (tests/e2e/public-page-js.spec.ts).

/** Where the service worker works: a service worker's scope is a path prefix, so one registration each. */
export const APP_SCOPES = ['/dashboard', '/status/', '/admin'] as const;
export const SERVICE_WORKER_URL = '/sw.js';
const SESSION_CACHE = 'session-data';

/** The registration whose scope covers `path` (the back office's for /admin and /adminChat). */
export function scopeOf(path: string): string {
  return APP_SCOPES.find((s) => path.startsWith(s)) ?? '/dashboard';
}

function addManifest() {
  if (document.querySelector('link[rel="manifest"]')) return;
  const link = document.createElement('link');
  link.rel = 'manifest';
  link.href = '/manifest.webmanifest';
  document.head.append(link);
}

export async function registerAppWorker(scope: string): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  return navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope });
}

/** Mounted once by each signed-in page: the manifest and every scope's service worker. */
export function useInstallableApp(): void {
  useEffect(() => {
    addManifest();
    for (const scope of APP_SCOPES) void registerAppWorker(scope).catch(() => {});
  }, []);
}

/**
 * After a sign-out: the answers kept for offline use are deleted, and this device's push
 * subscriptions end (the push service then answers 410, and the server forgets them).
 */
export async function clearSessionData(): Promise<void> {
  if ('caches' in window) await caches.delete(SESSION_CACHE).catch(() => false);
  if (!('serviceWorker' in navigator)) return;
  const registrations = await navigator.serviceWorker.getRegistrations().catch(() => [] as ServiceWorkerRegistration[]);
  for (const r of registrations) {
    r.active?.postMessage({ type: 'signed-out' });
    const sub = await r.pushManager?.getSubscription().catch(() => null);
    await sub?.unsubscribe().catch(() => false);
  }
}
