import { useAdminData } from './use-admin-data.ts';
import type { ChatSummaryResponse } from '../../../contract/admin-chats.ts';

/** Open and unread chats for the "Chats" entry point; refreshed on every admin screen load. */
export function useChatSummary(): ChatSummaryResponse | null {
  return useAdminData<ChatSummaryResponse>('chats/summary').data;
}
