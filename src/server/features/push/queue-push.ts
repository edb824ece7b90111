import { sql } from 'drizzle-orm';
import type { NoticeKind, PushPayload } from '../../../contract/notification-preferences.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { pushSent } from '../../db/schema/notifications.ts';
import { noticeAllowed } from '../notification-preferences/allowed.ts';
import { subscriptionsOf } from './devices.ts';

// Pushes are stored work (docs/decisions/343-web-push.md): in the transaction of the change they
// announce, one `push.deliver` job per device of each person who allows that kind of notice now.
// The job pass sends them after the commit (woken by it, so within a second or two); a crash loses
// none, and a retried job sends at most one more copy of a short summary.

export const PUSH_DELIVER = 'push.deliver';

export interface PushNotice {
  kind: NoticeKind;
  title: string;
  body: string;
  /** A path of the app, opened when the notification is clicked. */
  url: string;
  /** The same key for the same person is pushed once (an event heard twice, a chat's later messages). */
  dedupeKey: string;
  at: Date;
  urgent?: boolean;
}

export interface PushJob {
  subscriptionId: string;
  message: PushPayload;
  ttlSeconds: number;
  urgency: 'normal' | 'high';
}

/** The owner and staff, or the owner only (money stays with the owner, decision 191), who have a device. */
export async function agencyWithDevices(tx: Tx, ownersOnly = false): Promise<string[]> {
  const roles = ownersOnly ? sql`('admin')` : sql`('admin', 'staff')`;
  const rows = await tx.execute(
    sql`select distinct u.id from users u join push_subscriptions p on p.user_id = u.id where u.role in ${roles} and u.deleted_at is null`,
  );
  return (rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

/** The order's customer when they have a device. */
export async function customerWithDevices(tx: Tx, orderId: string): Promise<string[]> {
  const rows = await tx.execute(
    sql`select distinct o.user_id as id from orders o join push_subscriptions p on p.user_id = o.user_id where o.id = ${orderId}`,
  );
  return (rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

/** Stores the pushes of `notice` for `userIds` (each checked against their choices and quiet hours). */
export async function queuePush(deps: AppDeps, tx: Tx, userIds: readonly string[], notice: PushNotice): Promise<number> {
  let queued = 0;
  for (const userId of new Set(userIds)) {
    if (!(await noticeAllowed(tx, { userId, kind: notice.kind, channel: 'push', at: notice.at }))) continue;
    const fresh = await tx
      .insert(pushSent)
      .values({ userId, dedupeKey: notice.dedupeKey.slice(0, 200) })
      .onConflictDoNothing()
      .returning({ userId: pushSent.userId });
    if (fresh.length === 0) continue;
    const message: PushPayload = {
      kind: notice.kind,
      title: notice.title.slice(0, 80),
      body: notice.body.slice(0, 160),
      url: notice.url,
      tag: notice.dedupeKey.slice(0, 64),
    };
    for (const device of await subscriptionsOf(tx, userId)) {
      const job: PushJob = {
        subscriptionId: device.id,
        message,
        ttlSeconds: notice.urgent ? 3600 : 24 * 3600,
        urgency: notice.urgent ? 'high' : 'normal',
      };
      await deps.jobs.enqueue(tx, PUSH_DELIVER, { ...job });
      queued++;
    }
  }
  return queued;
}
