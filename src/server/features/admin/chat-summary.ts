import type { ChatSummaryResponse } from '../../../contract/admin-chats.ts';
import type { Db } from '../../db/client.ts';

/** Open and unread chats (issue 6's conversations); zero until the chat tables exist. */
export async function chatSummary(_db: Db): Promise<ChatSummaryResponse> {
  return { openChats: 0, unreadChats: 0, unreadMessages: 0 };
}
