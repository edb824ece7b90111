import type { Agent } from 'node:https';
import webpush from 'web-push';

// The Web Push adapter (docs/decisions/343-web-push.md): the `web-push` library encrypts the payload
// for the subscription's keys (RFC 8291, aes128gcm) and signs a VAPID JWT (RFC 8292) for the push
// service's origin. Nothing else of the app knows the library.

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** mailto: or https: — the push service's contact for the sender. */
  subject: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** `gone`: the push service no longer knows the subscription (404 or 410) — delete it. */
export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'refused'; status: number; detail: string }
  | { kind: 'retry'; detail: string };

export interface PushSender {
  publicKey: string;
  send(
    target: PushTarget,
    payload: string,
    options: { ttlSeconds: number; urgency: 'normal' | 'high'; topic?: string },
  ): Promise<PushOutcome>;
}

/** A fresh VAPID key pair (P-256), URL-safe base64 as the browser wants the public key. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}

/** The sender. `agent`: tests trust their local push service's certificate through it. */
export function createPushSender(keys: VapidKeys, opts: { agent?: Agent; timeoutMs?: number } = {}): PushSender {
  // Checks the keys' form once, at start-up: a bad key stops the server with a clear message.
  webpush.setVapidDetails(keys.subject, keys.publicKey, keys.privateKey);
  return {
    publicKey: keys.publicKey,
    async send(target, payload, options) {
      try {
        await webpush.sendNotification({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
          vapidDetails: keys,
          contentEncoding: 'aes128gcm',
          TTL: options.ttlSeconds,
          urgency: options.urgency,
          ...(options.topic ? { topic: options.topic } : {}),
          timeout: opts.timeoutMs ?? 10_000,
          ...(opts.agent ? { agent: opts.agent } : {}),
        });
        return { kind: 'sent' };
      } catch (err) {
        const status = (err as { statusCode?: unknown }).statusCode;
        if (typeof status !== 'number') return { kind: 'retry', detail: err instanceof Error ? err.message : 'push failed' };
        if (status === 404 || status === 410) return { kind: 'gone', status };
        // Too many requests or the service's own trouble: later. Anything else will not get better.
        if (status === 429 || status >= 500) return { kind: 'retry', detail: `push service answered ${status}` };
        return { kind: 'refused', status, detail: String((err as { body?: unknown }).body ?? '').slice(0, 200) };
      }
    },
  };
}
