import { randomUUID } from 'node:crypto';
import { CHAT_SENDER, type ChatMessage, type ChatSender, type ChatSummary } from '../../../contract/chat.ts';
import type { Database } from '../../db/client.ts';
import { AppError, conflict } from '../../lib/app-error.ts';
import { createBatchQueue } from '../../db/batch-queue.ts';
import { type Conversation, type SummaryRow, toMessage, toSummary } from './conversations.ts';

// Chat messages are written in batches (decision 110). Under load every message
// was its own transaction: on PostgreSQL each commit waited for its own WAL flush (the profile's
// `LWLock:WALWrite` / `IO:WALSync`), on PGlite each statement paid the embedded database's
// per-statement cost on the only thread. One multi-row statement per batch turns N flushes into
// one; a message is still acknowledged and broadcast only after the batch that holds it commits.

export interface MessageToStore {
  chatId: string;
  sender: ChatSender;
  text: string;
  who?: Pick<Conversation, 'userName' | 'userEmail'>;
}

export interface StoredMessage {
  message: ChatMessage;
  summary: ChatSummary;
}

/** A message that could not be stored: its chat is closed (or gone), or the statement failed. */
export type StoreOutcome = StoredMessage | AppError | Error;

type Row = { id: string; conversation_id: string; sender: ChatSender; body: string; created_at: Date; chat_created_at: Date } & Omit<
  SummaryRow,
  'id' | 'name' | 'email' | 'created_at'
>;

const closedChat = () => conflict('This chat is closed. Please start a new chat.');

/**
 * Stores the messages in one statement (one transaction, one WAL flush) and returns, for each, the
 * stored message and the console's summary of its chat after the whole batch. A message whose chat
 * is closed or unknown is not stored and gets CONFLICT; the others are stored. Several messages of
 * one chat keep their order (`seq` follows the input's order); the chat's counters take them all.
 */
export async function storeMessages(database: Database, items: readonly MessageToStore[]): Promise<StoreOutcome[]> {
  if (items.length === 0) return [];
  // Ids are chosen here so that each returned row finds its request.
  const ids = items.map(() => randomUUID());
  const rows = await database.query<Row>(
    `with input as (
       select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) with ordinality as i(id, chat_id, sender, body, ord)),
     m as (
       insert into chat_messages (id, conversation_id, sender, body)
       select i.id, i.chat_id, i.sender, i.body
         from input i join chat_conversations c on c.id = i.chat_id
        where c.state <> 'closed'
        order by i.ord
       returning id, conversation_id, sender, body, created_at, seq),
     per_chat as (
       select conversation_id,
              count(*) filter (where sender = '${CHAT_SENDER.visitor}') as from_user,
              count(*) filter (where sender = '${CHAT_SENDER.agency}') as from_admin,
              (array_agg(body order by seq desc))[1] as last_body,
              max(created_at) as last_at
         from m group by conversation_id),
     c as (
       update chat_conversations cc set
         last_message = left(p.last_body, 200),
         last_message_at = p.last_at,
         admin_unread = cc.admin_unread + p.from_user,
         visitor_unread = cc.visitor_unread + p.from_admin,
         state = case when p.from_admin > 0 then 'open' else cc.state end
         from per_chat p where cc.id = p.conversation_id
       returning cc.id as chat_id, cc.state, cc.contact_email, cc.admin_unread, cc.last_message, cc.last_message_at, cc.created_at as chat_created_at)
     select m.id, m.conversation_id, m.sender, m.body, m.created_at,
            c.state, c.contact_email, c.admin_unread, c.last_message, c.last_message_at, c.chat_created_at
       from m join c on c.chat_id = m.conversation_id`,
    [ids, items.map((i) => i.chatId), items.map((i) => i.sender), items.map((i) => i.text)],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.map((item, n) => {
    const row = byId.get(ids[n]!);
    if (!row) return closedChat();
    const who = item.who ?? { userName: null, userEmail: null };
    return {
      message: toMessage(row),
      summary: toSummary({ ...row, id: row.conversation_id, created_at: row.chat_created_at, name: who.userName, email: who.userEmail }),
    };
  });
}

/** One message on its own (tests, and writes outside the socket path): CONFLICT when the chat is closed. */
export async function storeMessage(
  database: Database,
  chatId: string,
  sender: ChatSender,
  text: string,
  who?: MessageToStore['who'],
): Promise<StoredMessage> {
  const [outcome] = await storeMessages(database, [{ chatId, sender, text, who }]);
  if (outcome instanceof Error) throw outcome;
  return outcome!;
}

export interface MessageWriter {
  /** Resolves once the message is committed; rejects with CONFLICT (closed chat), UNAVAILABLE (busy) or the database's error. */
  store(item: MessageToStore): Promise<StoredMessage>;
  /** Messages waiting for their batch (not counting those being written). */
  readonly queued: number;
}

export interface MessageWriterOptions {
  /**
   * Batches in flight at once, each chat always in the same one (so its messages keep their
   * order). PostgreSQL: 4 — a batch then waits for its own WAL flush only, not for the one before
   * it too, and the server merges concurrent flushes. PGlite: 1 (one thread, one query at a time).
   */
  lanes?: number;
  /** Most messages in one statement. */
  maxBatch?: number;
  /**
   * Admission control: while the oldest message waiting in its lane has waited longer than this,
   * new messages for that lane are refused at once (UNAVAILABLE, shown by the widget) instead of
   * joining a queue that grows faster than the database drains it. What is accepted is stored
   * within about this time plus one batch.
   */
  maxWaitMs?: number;
  now?: () => number;
}

export const busyChat = () => new AppError('UNAVAILABLE', 'The chat is very busy right now. Please send your message again in a moment.');

// SQLSTATE classes 22 (data exception) and 23 (integrity constraint): one bad row, not a broken
// database. Such a batch is retried message by message so the others are still stored.
const isDataError = (err: unknown) => /^2[23]/.test(String((err as { code?: unknown }).code ?? ''));

const laneOf = (chatId: string, lanes: number) => {
  let h = 0;
  for (let i = 0; i < chatId.length; i++) h = (h * 31 + chatId.charCodeAt(i)) | 0;
  return Math.abs(h) % lanes;
};

/**
 * One writer per process. Each lane is a batch queue (db/batch-queue.ts): an idle chat writes a
 * message at once, a busy one writes many per commit — group commit done by the application.
 */
export function createMessageWriter(database: Database, opts: MessageWriterOptions = {}): MessageWriter {
  const maxWaitMs = opts.maxWaitMs ?? 400;
  const lanes = opts.lanes ?? (database.kind === 'postgres' ? 4 : 1);
  const write = async (items: MessageToStore[]): Promise<StoreOutcome[]> => {
    try {
      return await storeMessages(database, items);
    } catch (err) {
      if (items.length > 1 && isDataError(err)) {
        const outcomes: StoreOutcome[] = [];
        for (const item of items) outcomes.push(...(await write([item]).catch((e: Error) => [e])));
        return outcomes;
      }
      // Nothing of this batch was stored (one statement, one transaction): every sender hears so.
      throw err;
    }
  };
  const queues = Array.from({ length: lanes }, () =>
    createBatchQueue<MessageToStore, StoredMessage>(write, { maxBatch: opts.maxBatch, now: opts.now }),
  );
  return {
    get queued() {
      return queues.reduce((n, q) => n + q.waiting, 0);
    },
    store(item) {
      const queue = queues[laneOf(item.chatId, lanes)]!;
      if (queue.oldestWaitMs() > maxWaitMs) return Promise.reject(busyChat());
      return queue.push(item);
    },
  };
}
