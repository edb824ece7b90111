import { NOTICE_KINDS, type NoticeKind } from '../../../contract/notification-preferences.ts';
import { noticeAllowed } from '../notification-preferences/allowed.ts';
import type { NoticeAllowed } from './send-whatsapp.ts';

const isNoticeKind = (kind: string): kind is NoticeKind => (NOTICE_KINDS as readonly string[]).includes(kind);

/**
 * The preference check the WhatsApp pass is given (send-whatsapp.ts `NoticeAllowed`): the person's
 * choice for the template's notice kind on the WhatsApp channel, then their quiet hours
 * (features/notification-preferences/allowed.ts, docs/decisions/342-notification-preferences.md).
 * Consent is the pass's own check, made before this one.
 */
export const whatsappNoticeAllowed: NoticeAllowed = async (db, q) =>
  isNoticeKind(q.kind) && noticeAllowed(db, { userId: q.userId, kind: q.kind, channel: 'whatsapp', at: q.at });
