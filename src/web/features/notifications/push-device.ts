import { getPushKey, postPushSubscriptions } from '../../../contract/notification-preferences.ts';
import { call } from '../../lib/call.ts';
import { registerAppWorker, scopeOf } from './install.ts';

// Allowing push on this device (docs/decisions/343-web-push.md): the browser's permission, a push
// subscription for the VAPID key the server hands out, and the subscription stored with a name.

export type PushSupport = 'supported' | 'unsupported' | 'denied';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported';
  return Notification.permission === 'denied' ? 'denied' : 'supported';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = (base64url + '==='.slice((base64url.length + 3) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** A push subscription needs the registration's worker active. */
function activated(registration: ServiceWorkerRegistration): Promise<void> {
  if (registration.active) return Promise.resolve();
  const worker = registration.installing ?? registration.waiting;
  return new Promise((resolve) => {
    if (!worker) return resolve();
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve();
    });
  });
}

/** Asks for permission, subscribes this browser and stores it; answers the stored id. */
export async function allowPushHere(deviceName: string): Promise<string> {
  if ((await Notification.requestPermission()) !== 'granted')
    throw new Error('Notifications are blocked for this site. Allow them in the browser’s site settings, then try again.');
  const registration = await registerAppWorker(scopeOf(location.pathname));
  if (!registration) throw new Error('This browser cannot receive push notifications.');
  await activated(registration);
  const { publicKey } = await call(getPushKey);
  const existing = await registration.pushManager.getSubscription();
  const subscription =
    existing ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = subscription.toJSON() as { endpoint?: string; keys?: { p256dh?: string; auth?: string } };
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error('The browser gave no usable push subscription.');
  const { id } = await call(postPushSubscriptions, {
    body: {
      endpoint: json.endpoint,
      keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
      ...(deviceName.trim() ? { deviceName: deviceName.trim() } : {}),
    },
  });
  return id;
}
