import { useEffect } from 'react';
import type { ChatSummaryResponse } from '../../../contract/admin-chats.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminChatsSummary } from '../../../contract/admin-chats.ts';

const REFRESH_MS = 30_000;

/** Open and unread chats for the "Chats" entry point, refreshed every 30 s while the back office is open. */
export function useChatSummary(): ChatSummaryResponse | null {
  const { data, reload } = useOperation(getAdminChatsSummary, {});
  useEffect(() => {
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return data;
}
