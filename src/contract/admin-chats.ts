import { z } from 'zod';

export const chatSummaryResponse = z.object({
  /** Conversations that are not closed. */
  openChats: z.number(),
  /** Open conversations with at least one message the admin has not read. */
  unreadChats: z.number(),
  /** Messages the admin has not read, over all open conversations. */
  unreadMessages: z.number(),
});
export type ChatSummaryResponse = z.infer<typeof chatSummaryResponse>;
