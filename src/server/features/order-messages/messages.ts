import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ORDER_MESSAGES_PAGE_MAX, type OrderMessage, type PostOrderMessageBody } from '../../../contract/order-messages.ts';
import type { AppDeps } from '../../deps.ts';
import type { Database, Db, Tx } from '../../db/client.ts';
import { orderMessageFiles, orderMessageReads, orderMessages, type MessageSide } from '../../db/schema/order-messages.ts';
import { orderFiles } from '../../db/schema/order-files.ts';
import { users } from '../../db/schema/platform.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { markNoticesRead, waitingNoticesSql } from '../notices/notices.ts';
import { authorNameOf } from '../../../domain/author-name.ts';
import type { ThreadViewer } from '../../lib/workspace-order.ts';

// One thread per order (decision 155). A message is stored, with its attachments
// and the sender's read marker, in one transaction that publishes `order.message`; the notice for
// the other side (notices/) and the live broadcast (socket-handlers.ts) hang on that event.

type MessageRow = {
  id: string;
  sender: MessageSide;
  text: string;
  createdAt: Date;
  senderUserId: string | null;
  senderName: string | null;
};

/** The reader of a thread: whose messages are "mine", and the brand agency names end with. */
export interface MessageReader {
  userId: string;
  brand: string;
}

const messageColumns = {
  id: orderMessages.id,
  sender: orderMessages.sender,
  text: orderMessages.text,
  createdAt: orderMessages.createdAt,
  senderUserId: orderMessages.senderUserId,
  senderName: users.name,
};

/** One stored message as the reader sees it (the live broadcast's shape too). */
export async function messageFor(db: Db | Tx, messageId: string, reader: MessageReader): Promise<OrderMessage | null> {
  const rows = await db
    .select(messageColumns)
    .from(orderMessages)
    .leftJoin(users, eq(users.id, orderMessages.senderUserId))
    .where(eq(orderMessages.id, messageId));
  const [m] = await withFiles(db, rows, reader);
  return m ?? null;
}

async function withFiles(db: Db | Tx, rows: MessageRow[], reader: MessageReader): Promise<OrderMessage[]> {
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await db
        .select({ messageId: orderMessageFiles.messageId, fileId: orderMessageFiles.fileId })
        .from(orderMessageFiles)
        .where(inArray(orderMessageFiles.messageId, ids))
        .orderBy(asc(orderMessageFiles.position))
    : [];
  return rows.map((r) => ({
    id: r.id,
    sender: r.sender,
    text: r.text,
    fileIds: files.filter((f) => f.messageId === r.id).map((f) => f.fileId),
    createdAt: r.createdAt.toISOString(),
    authorName: authorNameOf(r.sender, r.senderName, reader.brand),
    mine: r.senderUserId !== null && r.senderUserId === reader.userId,
  }));
}

/**
 * Marks the thread read for `side` up to its last message, and that side's message notices read
 * (so the batched e-mail skips what was seen in the app). Never moves a marker backwards.
 */
export async function markThreadRead(db: Db | Tx, order: OrderRef, side: MessageSide, now = new Date(), upToSeq?: number): Promise<void> {
  // Up to what the reader was shown (a message stored meanwhile stays unread), else the latest.
  const [last] =
    upToSeq === undefined
      ? await db
          .select({ seq: sql<number>`coalesce(max(${orderMessages.seq}), 0)::int8` })
          .from(orderMessages)
          .where(eq(orderMessages.orderId, order.orderId))
      : [{ seq: upToSeq }];
  const seq = Number(last?.seq ?? 0);
  await db
    .insert(orderMessageReads)
    .values({ orderId: order.orderId, side, lastReadSeq: seq, readAt: now })
    .onConflictDoUpdate({
      target: [orderMessageReads.orderId, orderMessageReads.side],
      set: { lastReadSeq: sql`greatest(${orderMessageReads.lastReadSeq}, ${seq})`, readAt: now },
    });
  await markNoticesRead(db, order.orderId, side, ['message'], now);
}

// A page of the thread in ONE named statement (docs/decisions/291-signed-in-reads-one-statement.md):
// workspaceOrder's rule (lib/workspace-order.ts: a customer's own order past the checkout draft; any
// paid order for the agency), the page's messages (the newest `$5 - 1` before the cursor `$4`, or of
// the thread; one more tells whether earlier ones exist) with their attachments, and what reading
// them would change — the side's read marker and its unread message notices (notices'
// waitingNoticesSql, the one rule for them: docs/decisions/341-one-rule-per-derived-value.md) — so a
// read that changes nothing writes nothing (markThreadRead wrote two rows on every read).
const THREAD_SQL = `select o.id as order_id, o.public_id as order_public_id, u.email as customer_email,
         coalesce((select r.last_read_seq from order_message_reads r where r.order_id = o.id and r.side = $3), 0)::float8 as last_read_seq,
         ${waitingNoticesSql('$3', ['message'], 'o.id')} as unseen, rd.version::text as version,
         m.id, m.sender, m.text, m.created_at, m.sender_user_id, su.name as sender_name, m.seq::float8 as seq,
         (select coalesce(json_agg(f.file_id order by f.position), '[]'::json) from order_message_files f where f.message_id = m.id) as file_ids
    from orders o
    join users u on u.id = o.user_id
    join order_reads rd on rd.order_id = o.id
    left join lateral (
      select m.* from order_messages m
       where m.order_id = o.id and ($4::uuid is null or m.seq < (select c.seq from order_messages c where c.id = $4::uuid and c.order_id = o.id))
       order by m.seq desc limit $5
    ) m on true
    left join users su on su.id = m.sender_user_id
   where o.public_id = $1 and o.state <> 'awaiting_advance' and ($2::uuid is null or o.user_id = $2::uuid)
   order by m.seq`;

interface ThreadRow {
  order_id: string;
  order_public_id: string;
  customer_email: string;
  last_read_seq: number;
  unseen: boolean;
  version: string;
  id: string | null;
  sender: MessageSide;
  text: string;
  created_at: Date | string;
  sender_user_id: string | null;
  sender_name: string | null;
  seq: number;
  file_ids: string[];
}

/** Which page of a thread: the newest `limit` messages, or those written before the message `before`. */
export interface ThreadPage {
  before?: string;
  limit: number;
}

/**
 * A page of the thread of the order `publicId` as `viewer` may see it (404 otherwise), oldest first,
 * with the cursor of the page before it. Reading the newest page marks the thread read for the
 * viewer's side up to the last message shown. With the order's version it was read at
 * (`order_reads`, lib/versioned-answers.ts), null when the read marked the thread read: that write
 * moves the version.
 */
export async function readThread(
  database: Pick<Database, 'query'>,
  db: Db,
  publicId: string,
  viewer: ThreadViewer,
  brand: string,
  page: ThreadPage = { limit: ORDER_MESSAGES_PAGE_MAX },
): Promise<{ messages: OrderMessage[]; earlierCursor: string | null; version: string | null }> {
  const params = [publicId, viewer.side === 'customer' ? viewer.userId : null, viewer.side, page.before ?? null, page.limit + 1];
  const rows = await database.query<ThreadRow>(THREAD_SQL, params, 'order_thread_page');
  const first = rows[0];
  if (!first) throw notFound('Order not found.');
  const all = rows.filter((r) => r.id !== null);
  // One more than the page: earlier messages exist, and the page starts after the oldest read.
  const messages = all.length > page.limit ? all.slice(1) : all;
  const lastSeq = Number(messages.at(-1)?.seq ?? 0);
  const marks = page.before === undefined && (first.unseen || lastSeq > Number(first.last_read_seq));
  if (marks) {
    await markThreadRead(
      db,
      { orderId: first.order_id, orderPublicId: first.order_public_id, customerEmail: first.customer_email },
      viewer.side,
      new Date(),
      lastSeq,
    );
  }
  return {
    messages: messages.map((r) => ({
      id: r.id!,
      sender: r.sender,
      text: r.text,
      fileIds: r.file_ids,
      createdAt: (r.created_at instanceof Date ? r.created_at : new Date(r.created_at)).toISOString(),
      authorName: authorNameOf(r.sender, r.sender_name, brand),
      mine: r.sender_user_id !== null && r.sender_user_id === viewer.userId,
    })),
    earlierCursor: all.length > page.limit ? messages[0]!.id! : null,
    version: marks ? null : first.version,
  };
}

// The version alone under the thread's rule for a customer (their own order past the checkout draft):
// what a kept thread is checked against.
const OWN_THREAD_VERSION_SQL = `select rd.version::text as version
   from orders o join users u on u.id = o.user_id join order_reads rd on rd.order_id = o.id
  where o.public_id = $1 and o.state <> 'awaiting_advance' and o.user_id = $2`;

/** The version of the customer's own order `publicId` for its thread; 404 when it is not theirs. */
export async function ownThreadVersion(database: Pick<Database, 'query'>, publicId: string, userId: string): Promise<string> {
  const [row] = await database.query<{ version: string }>(OWN_THREAD_VERSION_SQL, [publicId, userId], 'own_thread_version');
  if (!row) throw notFound('Order not found.');
  return row.version;
}

/**
 * Adds a message. Attachments must be files of this order (a file of another order is a 400 that
 * says no more than an unknown id would). The founder's message is audited in the same transaction.
 */
export async function postMessage(
  deps: AppDeps,
  order: OrderRef,
  viewer: ThreadViewer,
  body: PostOrderMessageBody,
  now = new Date(),
): Promise<OrderMessage> {
  const fileIds = [...new Set(body.fileIds ?? [])];
  return deps.events.transaction(async (tx) => {
    if (fileIds.length) {
      const found = await tx
        .select({ id: orderFiles.id })
        .from(orderFiles)
        .where(and(eq(orderFiles.orderId, order.orderId), inArray(orderFiles.id, fileIds)))
        // Shared: a delete of one of these files waits for this message (and then sees it in use).
        .for('share');
      if (found.length !== fileIds.length) throw badRequest("An attached file is not one of this order's files.");
    }
    const [row] = await tx
      .insert(orderMessages)
      .values({ orderId: order.orderId, sender: viewer.side, senderUserId: viewer.userId, text: body.text, createdAt: now })
      .returning({ id: orderMessages.id });
    if (fileIds.length)
      await tx.insert(orderMessageFiles).values(fileIds.map((fileId, position) => ({ messageId: row!.id, fileId, position })));
    // Whoever writes has read the thread so far.
    await markThreadRead(tx, order, viewer.side, now);
    if (viewer.side === 'agency') {
      await recordAudit(tx, {
        actorUserId: viewer.userId,
        action: 'order.message.send',
        entity: 'order',
        entityId: order.orderPublicId,
        // The text is the customer's business, not the audit log's: its size and attachments only.
        before: null,
        after: { messageId: row!.id, length: body.text.length, fileIds },
      });
    }
    const message = await messageFor(tx, row!.id, { userId: viewer.userId, brand: deps.config.BRAND_NAME });
    await deps.events.publish(tx, 'order.message', {
      ...order,
      messageId: message!.id,
      sender: viewer.side,
      senderUserId: viewer.userId,
      text: message!.text,
      fileIds: message!.fileIds,
      at: now,
    });
    return message!;
  });
}

/** "It is attached to a message": such a file stays (order-files' in-use hook). */
export async function fileInMessage(tx: Tx, fileId: string): Promise<string | null> {
  const [row] = await tx
    .select({ id: orderMessageFiles.messageId })
    .from(orderMessageFiles)
    .where(eq(orderMessageFiles.fileId, fileId))
    .limit(1);
  return row ? 'It is attached to a message on the order.' : null;
}
