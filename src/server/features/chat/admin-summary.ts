import type { ChatSummaryResponse } from '../../../contract/admin-chats.ts';
import type { Database } from '../../db/client.ts';
import { LISTED_CHAT_SQL } from '../../db/schema/chat.ts';

/**
 * Open and unread chats for the back office: exactly the chats the console lists (one definition,
 * decision 126), so the overview never counts a chat the console does not show.
 */
export async function chatSummary(database: Database): Promise<ChatSummaryResponse> {
  const [r] = await database.query<{ open: number; unread: number; messages: number }>(
    `select count(*)::int as open,
            count(*) filter (where c.admin_unread > 0)::int as unread,
            coalesce(sum(c.admin_unread), 0)::int as messages
       from chat_conversations c where ${LISTED_CHAT_SQL}`,
  );
  return { openChats: Number(r?.open ?? 0), unreadChats: Number(r?.unread ?? 0), unreadMessages: Number(r?.messages ?? 0) };
}
