import { count, ne, sql } from 'drizzle-orm';
import type { ChatSummaryResponse } from '../../../contract/admin-chats.ts';
import type { Db } from '../../db/client.ts';
import { chatConversations } from '../../db/schema/chat.ts';

/** Open and unread chats from issue 6's conversations (its partial index on open chats serves it). */
export async function chatSummary(db: Db): Promise<ChatSummaryResponse> {
  const [r] = await db
    .select({
      open: count(),
      unread: sql<number>`count(*) filter (where ${chatConversations.adminUnread} > 0)::int`,
      messages: sql<number>`coalesce(sum(${chatConversations.adminUnread}), 0)::int`,
    })
    .from(chatConversations)
    .where(ne(chatConversations.state, 'closed'));
  return { openChats: Number(r?.open ?? 0), unreadChats: Number(r?.unread ?? 0), unreadMessages: Number(r?.messages ?? 0) };
}
