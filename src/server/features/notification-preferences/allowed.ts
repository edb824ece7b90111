import type { NoticeChannel, NoticeKind, QuietHours } from '../../../contract/notification-preferences.ts';
import type { Db, Tx } from '../../db/client.ts';
import { readPreferences } from './preferences.ts';

// The one question every sender asks before it sends (docs/decisions/342-notification-preferences.md):
// may this person be sent this kind of notice on this channel now? Their choice per kind and
// channel, then their quiet hours — which hold back push and WhatsApp, never e-mail.

/** The channels quiet hours hold back. */
const QUIET_CHANNELS: ReadonlySet<NoticeChannel> = new Set(['push', 'whatsapp']);

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether `at` falls in the quiet hours, read on the clock of their time zone (start = end: none). */
export function inQuietHours(quiet: QuietHours, at: Date): boolean {
  const start = minutes(quiet.start);
  const end = minutes(quiet.end);
  if (start === end) return false;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: quiet.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  const now = (hour % 24) * 60 + minute;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

export interface NoticeQuestion {
  userId: string;
  kind: NoticeKind;
  channel: NoticeChannel;
  at: Date;
  /**
   * The agency is "available" in the live chat: a `chat_human` notice then ignores quiet hours. The
   * availability switch is not part of this feature; its caller passes what it knows (false: not
   * available, quiet hours hold).
   */
  available?: boolean;
}

/** Whether `userId` may be sent a `kind` notice on `channel` at `at`: their choice, then their quiet hours. */
export async function noticeAllowed(db: Db | Tx, q: NoticeQuestion): Promise<boolean> {
  const prefs = await readPreferences(db, q.userId);
  if (!prefs.channels[q.channel][q.kind]) return false;
  if (!QUIET_CHANNELS.has(q.channel)) return true;
  if (q.kind === 'chat_human' && q.available) return true;
  return !inQuietHours(prefs.quietHours, q.at);
}
