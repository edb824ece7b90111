import { eq, inArray, or, sql } from 'drizzle-orm';
import { CHAT_EVENTS } from '../../../contract/chat.ts';
import type { AppDeps } from '../../deps.ts';
import { chatConversations, chatMessages } from '../../db/schema/chat.ts';
import type { ChatServer } from '../../plugins/socket.ts';
import { ADMINS } from './presence.ts';
import { chatRoom } from './rooms.ts';

/**
 * A deleted account's chats (decision 192): found by the account and by the address a guest chat
 * left, their messages deleted; the conversation stays closed and empty, tied to the anonymised
 * account, so the console's summary of it shows "Deleted customer" and nothing the person wrote.
 */
export function subscribeChat(deps: AppDeps) {
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    const rows = await tx
      .select({ id: chatConversations.id })
      .from(chatConversations)
      .where(or(eq(chatConversations.userId, e.userId), eq(sql`lower(${chatConversations.contactEmail})`, e.email)));
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return;
    await tx.delete(chatMessages).where(inArray(chatMessages.conversationId, ids));
    await tx
      .update(chatConversations)
      .set({
        userId: e.userId,
        contactEmail: null,
        lastMessage: null,
        state: 'closed',
        closedAt: sql`coalesce(${chatConversations.closedAt}, now())`,
        adminUnread: 0,
        visitorUnread: 0,
      })
      .where(inArray(chatConversations.id, ids));
  });
}

/**
 * After the deletion commits, the console (on every instance, through the adapter) and any tab
 * still on one of those chats see it closed at once, instead of the erased messages until a reload.
 */
export function announceErasedChats(io: ChatServer, deps: AppDeps) {
  deps.events.afterCommit('account.deleted', async (e) => {
    const rows = await deps.db.select({ id: chatConversations.id }).from(chatConversations).where(eq(chatConversations.userId, e.userId));
    for (const { id } of rows) io.to(chatRoom(id)).to(ADMINS).emit(CHAT_EVENTS.chatClosed, { chatId: id });
  });
}
