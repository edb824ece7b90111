import { z } from 'zod';
import { defineOperation } from './operation.ts';

export const chatSummaryResponse = z.object({
  /** Conversations that are not closed. */
  openChats: z.number(),
  /** Open conversations with at least one message the admin has not read. */
  unreadChats: z.number(),
  /** Messages the admin has not read, over all open conversations. */
  unreadMessages: z.number(),
});
export type ChatSummaryResponse = z.infer<typeof chatSummaryResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Open and unread chats, for the entry point to the chat console */
export const getAdminChatsSummary = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/chats/summary',
  responses: { 200: chatSummaryResponse },
});
