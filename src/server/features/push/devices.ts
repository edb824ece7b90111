import { and, asc, eq } from 'drizzle-orm';
import type { PushDevice, PushSubscriptionBody } from '../../../contract/notification-preferences.ts';
import type { Db, Tx } from '../../db/client.ts';
import { pushSubscriptions } from '../../db/schema/notifications.ts';
import { notFound } from '../../lib/app-error.ts';

// A person's devices that receive push (docs/decisions/343-web-push.md). The endpoint is the push
// service's capability for one browser profile: stored once, moved to whoever subscribed it last
// (a shared computer signed in by someone else), and never shown whole.

const MAX_DEVICES = 20;

/** A readable name from the browser's User-Agent when the person gave none. */
export function deviceNameFrom(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  return os ? `${browser} on ${os}` : browser;
}

export async function addDevice(
  db: Db,
  userId: string,
  body: PushSubscriptionBody,
  userAgent: string | undefined,
): Promise<{ id: string }> {
  const values = {
    userId,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    deviceName: body.deviceName?.trim() || deviceNameFrom(userAgent),
  };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...values, createdAt: new Date(), lastSentAt: null } })
      .returning({ id: pushSubscriptions.id });
    // A person keeps at most MAX_DEVICES: the oldest go (a browser re-subscribing makes a new endpoint).
    const all = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(asc(pushSubscriptions.createdAt));
    for (const old of all.slice(0, Math.max(0, all.length - MAX_DEVICES)))
      await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, old.id));
    return { id: row!.id };
  });
}

export async function listDevices(db: Db, userId: string): Promise<PushDevice[]> {
  const rows = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
  return rows.map((r) => ({
    id: r.id,
    deviceName: r.deviceName,
    service: new URL(r.endpoint).host,
    createdAt: r.createdAt.toISOString(),
    lastSentAt: r.lastSentAt?.toISOString() ?? null,
  }));
}

/** Removes one of the person's own devices; another's, or an unknown id, is 404. */
export async function removeDevice(db: Db, userId: string, id: string): Promise<void> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  if (gone.length === 0) throw notFound('Unknown subscription.');
}

export async function subscriptionsOf(tx: Db | Tx, userId: string) {
  return tx.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}
