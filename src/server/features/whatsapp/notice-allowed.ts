import type { NoticeAllowed } from './send-whatsapp.ts';

/**
 * The preference check the WhatsApp pass is given (send-whatsapp.ts `NoticeAllowed`): the person's
 * choices per kind and channel and their quiet hours, answered by
 * features/notification-preferences/allowed.ts `noticeAllowed` where that feature exists. Without it,
 * consent (recorded per person) is the only choice, and every consented notice is allowed.
 */
export const whatsappNoticeAllowed: NoticeAllowed = async () => true;
