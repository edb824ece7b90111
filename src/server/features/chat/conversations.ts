import { randomBytes } from 'node:crypto';
import { CHAT_SENDER, type ChatMessage, type ChatSender, type ChatSide, type ChatSummary } from '../../../contract/chat.ts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { chatConversations, LISTED_CHAT_SQL } from '../../db/schema/chat.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { notFound } from '../../lib/app-error.ts';

// Conversations and their messages. The id is the capability (docs/decisions/040).
export interface Conversation {
  id: string;
  userId: string | null;
  state: 'waiting' | 'open' | 'closed';
  contactEmail: string | null;
  userEmail: string | null;
  userName: string | null;
  /** The owner was already e-mailed about this chat (offline mode). */
  ownerNotified: boolean;
}

/** Who is asking: the agency (owner or staff), a signed-in user (id) or an anonymous visitor (null). */
export interface Viewer {
  userId: string | null;
  isAgency: boolean;
}

const HISTORY_LIMIT = 200;
// A conversation nobody wrote in (the human tab opened, nothing said) is never listed in the
// console, and is deleted after a day.
const EMPTY_CHAT_KEPT = "interval '1 day'";

export const newChatId = () => randomBytes(24).toString('base64url');

export async function startConversation(database: Database, userId: string | null): Promise<string> {
  const id = newChatId();
  await database.query('insert into chat_conversations (id, user_id) values ($1, $2)', [id, userId]);
  return id;
}

/**
 * The conversation if the viewer may use it. A wrong id and a conversation owned by another
 * account give the same answer, so the response says nothing about which ids exist.
 */
export async function findAccessible(database: Database, chatId: string, viewer: Viewer): Promise<Conversation> {
  const rows = await database.query<{
    id: string;
    user_id: string | null;
    state: Conversation['state'];
    contact_email: string | null;
    email: string | null;
    name: string | null;
    notified: boolean;
  }>(
    `select c.id, c.user_id, c.state, c.contact_email, u.email, u.name, c.founder_notified_at is not null as notified
       from chat_conversations c left join users u on u.id = c.user_id where c.id = $1`,
    [chatId],
  );
  const row = rows[0];
  if (!row || (!viewer.isAgency && row.user_id !== null && row.user_id !== viewer.userId)) throw notFound('Unknown chat.');
  return {
    id: row.id,
    userId: row.user_id,
    state: row.state,
    contactEmail: row.contact_email,
    userEmail: row.email,
    userName: row.name,
    ownerNotified: row.notified,
  };
}

export const toMessage = (r: {
  id: string;
  conversation_id: string;
  sender: ChatSender;
  body: string;
  created_at: Date | string;
}): ChatMessage => ({
  id: r.id,
  chatId: r.conversation_id,
  sender: r.sender,
  message: r.body,
  createdAt: new Date(r.created_at).toISOString(),
});

// Storing a message: message-writer.ts (batched).

export async function chatHistory(database: Database, chatId: string): Promise<ChatMessage[]> {
  const rows = await database.query<{ id: string; conversation_id: string; sender: ChatSender; body: string; created_at: Date }>(
    `select * from (select id, conversation_id, sender, body, created_at, seq from chat_messages
       where conversation_id = $1 order by seq desc limit ${HISTORY_LIMIT}) t order by seq`,
    [chatId],
  );
  return rows.map(toMessage);
}

export async function markRead(database: Database, chatId: string, by: ChatSide) {
  const column = by === 'agency' ? 'admin_unread' : 'visitor_unread';
  await database.query(`update chat_conversations set ${column} = 0 where id = $1 and ${column} <> 0`, [chatId]);
}

/** Closes a chat; closed by an admin (`actorUserId`), the audit record is in the same transaction. */
export async function closeConversation(database: Database, chatId: string, by?: { actorUserId: string }) {
  if (!by) {
    await database.query(`update chat_conversations set state = 'closed', closed_at = now() where id = $1 and state <> 'closed'`, [chatId]);
    return;
  }
  await database.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ state: chatConversations.state })
      .from(chatConversations)
      .where(eq(chatConversations.id, chatId))
      .for('update');
    const closed = await tx
      .update(chatConversations)
      .set({ state: 'closed', closedAt: sql`now()` })
      .where(and(eq(chatConversations.id, chatId), ne(chatConversations.state, 'closed')))
      .returning({ id: chatConversations.id });
    if (closed.length) {
      await recordAudit(tx, {
        actorUserId: by.actorUserId,
        action: 'chat.close',
        entity: 'chat',
        entityId: chatId,
        before: { state: before?.state ?? null },
        after: { state: 'closed' },
      });
    }
  });
}

export async function setContactEmail(database: Database, chatId: string, email: string) {
  await database.query('update chat_conversations set contact_email = $2 where id = $1', [chatId, email]);
}

export async function unreadForVisitor(database: Database, chatId: string, viewer: Viewer) {
  const conversation = await findAccessible(database, chatId, viewer);
  const rows = await database.query<{ visitor_unread: number }>('select visitor_unread from chat_conversations where id = $1', [chatId]);
  return { unread: rows[0]?.visitor_unread ?? 0, state: conversation.state };
}

export type SummaryRow = {
  id: string;
  state: ChatSummary['state'];
  contact_email: string | null;
  admin_unread: number;
  last_message: string | null;
  last_message_at: Date | null;
  created_at: Date;
  name: string | null;
  email: string | null;
  /** Absent where the statement does not compute it (the message writer's live summaries). */
  first_response_seconds?: number | string | null;
};

/**
 * Seconds from the visitor's first message to the agency's first reply, over `chat_conversations c`
 * (docs/decisions/347-chat-availability-canned-replies-csat.md); null while unanswered.
 */
export const FIRST_RESPONSE_SQL = `extract(epoch from (
    (select min(m.created_at) from chat_messages m where m.conversation_id = c.id and m.sender = '${CHAT_SENDER.agency}')
  - (select min(m.created_at) from chat_messages m where m.conversation_id = c.id and m.sender = '${CHAT_SENDER.visitor}')))`;

const SUMMARY_SELECT = `select c.id, c.state, c.contact_email, c.admin_unread, c.last_message, c.last_message_at, c.created_at, u.name, u.email,
    ${FIRST_RESPONSE_SQL} as first_response_seconds
  from chat_conversations c left join users u on u.id = c.user_id`;

export const toSummary = (r: SummaryRow): ChatSummary => ({
  chatId: r.id,
  name: r.name ?? null,
  email: r.email ?? r.contact_email ?? null,
  lastMessage: r.last_message,
  lastMessageAt: r.last_message_at ? new Date(r.last_message_at).toISOString() : null,
  unread: r.admin_unread,
  state: r.state,
  createdAt: new Date(r.created_at).toISOString(),
  ...(r.first_response_seconds === undefined
    ? {}
    : {
        firstResponseSeconds:
          r.first_response_seconds === null || Number(r.first_response_seconds) < 0 ? null : Math.round(Number(r.first_response_seconds)),
      }),
});

export async function activeSummaries(database: Database): Promise<ChatSummary[]> {
  const rows = await database.query<SummaryRow>(
    `${SUMMARY_SELECT}
      where ${LISTED_CHAT_SQL}
      order by c.last_message_at desc limit 200`,
  );
  return rows.map(toSummary);
}

/** Deletes conversations that never got a message and are older than a day; returns how many. */
export async function deleteAbandonedEmptyChats(database: Database): Promise<number> {
  const rows = await database.query(
    `delete from chat_conversations c where c.last_message_at is null and c.created_at < now() - ${EMPTY_CHAT_KEPT}
       and not exists (select 1 from chat_messages m where m.conversation_id = c.id) returning c.id`,
  );
  return rows.length;
}

export async function summaryOf(database: Database, chatId: string): Promise<ChatSummary | null> {
  const rows = await database.query<SummaryRow>(`${SUMMARY_SELECT} where c.id = $1`, [chatId]);
  return rows[0] ? toSummary(rows[0]) : null;
}
