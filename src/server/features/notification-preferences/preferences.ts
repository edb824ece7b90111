import { eq } from 'drizzle-orm';
import {
  AGENCY_NOTICE_KINDS,
  CUSTOMER_NOTICE_KINDS,
  NOTICE_CHANNELS,
  NOTICE_KINDS,
  type NoticeChannel,
  type NoticeKind,
  type NotificationPreferences,
  type NotificationPreferencesBody,
} from '../../../contract/notification-preferences.ts';
import type { Db, Tx } from '../../db/client.ts';
import { notificationPreferences, type StoredChannels } from '../../db/schema/notifications.ts';

// A person's notification choices (docs/decisions/342-notification-preferences.md). Only what they
// changed is stored; every other kind and channel takes its default here, so a kind added later
// starts at its default for everyone.

export const DEFAULT_QUIET_HOURS = { start: '22:00', end: '08:00', timeZone: 'Asia/Kolkata' } as const;

const customerOnly = new Set<NoticeKind>(CUSTOMER_NOTICE_KINDS.filter((k) => !(AGENCY_NOTICE_KINDS as readonly NoticeKind[]).includes(k)));

/**
 * The defaults: e-mail and push on for every kind (push reaches only devices the person allowed);
 * WhatsApp on for the customer's kinds only — it needs the customer's recorded consent anyway, and
 * the agency has no WhatsApp templates.
 */
export function defaultAllowed(channel: NoticeChannel, kind: NoticeKind): boolean {
  if (channel === 'whatsapp') return customerOnly.has(kind) || kind === 'site_down';
  return true;
}

type Row = typeof notificationPreferences.$inferSelect;

function resolve(row: Pick<Row, 'channels' | 'quietStart' | 'quietEnd' | 'timeZone'> | undefined): NotificationPreferences {
  const stored: StoredChannels = row?.channels ?? {};
  const channels = Object.fromEntries(
    NOTICE_CHANNELS.map((channel) => [
      channel,
      Object.fromEntries(NOTICE_KINDS.map((kind) => [kind, stored[channel]?.[kind] ?? defaultAllowed(channel, kind)])),
    ]),
  ) as NotificationPreferences['channels'];
  return {
    channels,
    quietHours: row ? { start: row.quietStart, end: row.quietEnd, timeZone: row.timeZone } : { ...DEFAULT_QUIET_HOURS },
  };
}

/** Every kind on every channel, and the quiet hours, as the person sees them. */
export async function readPreferences(db: Db | Tx, userId: string): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  return resolve(row);
}

/** Stores what the body names (the rest keeps its value) and answers the whole result. */
export async function writePreferences(db: Db | Tx, userId: string, body: NotificationPreferencesBody): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  const channels: StoredChannels = { ...(row?.channels ?? {}) };
  for (const channel of NOTICE_CHANNELS) {
    const changes = body.channels?.[channel];
    if (changes) channels[channel] = { ...channels[channel], ...changes };
  }
  const quiet = body.quietHours ?? (row ? { start: row.quietStart, end: row.quietEnd, timeZone: row.timeZone } : DEFAULT_QUIET_HOURS);
  const values = { channels, quietStart: quiet.start, quietEnd: quiet.end, timeZone: quiet.timeZone, updatedAt: new Date() };
  await db
    .insert(notificationPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: values });
  return resolve(values);
}
