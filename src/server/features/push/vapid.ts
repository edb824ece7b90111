import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { generateVapidKeys, type VapidKeys } from '../../integrations/push/web-push.ts';

// Where the VAPID keys come from (docs/decisions/343-web-push.md): the environment; outside
// production, a pair generated at first start and kept in DATA_DIR/vapid-keys.json so that the
// browsers' subscriptions stay valid across restarts; in memory for tests. Production without keys
// runs without push, and says so once.

export function resolveVapidKeys(config: Config, log: Pick<FastifyBaseLogger, 'warn' | 'info'>): VapidKeys | null {
  const subject = config.VAPID_SUBJECT ?? `mailto:${config.BRAND_EMAIL}`;
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
  if (config.isProduction) {
    log.warn('Web Push is off: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (docs/operations.md)');
    return null;
  }
  if (config.dataDir === 'memory') return { ...generateVapidKeys(), subject };
  const file = join(config.dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
  }
  const keys = generateVapidKeys();
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  log.info(`Web Push: generated a VAPID key pair for development in ${file}`);
  return { ...keys, subject };
}

/** Whether `endpoint` belongs to one of the push services the server posts to (PUSH_SERVICE_HOSTS). */
export function isAllowedPushService(endpoint: string, hosts: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(endpoint).hostname.toLowerCase();
  } catch {
    return false;
  }
  return hosts.some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) && host.length > h.length - 1 : host === h));
}
