import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { notices, type MessageSide, type NoticeKind } from '../../db/schema/order-messages.ts';

// The one notice mechanism (decision 155): anything the other side of an order should
// hear about becomes a notice row here; send-notices.ts mails them in batches, reading in the app
// marks them read first. A notice's summary is what an e-mail may say — never a message's text.

export interface NewNotice {
  orderId: string;
  recipient: MessageSide;
  kind: NoticeKind;
  /** The message, review round or comment it is about. */
  refId: string;
  summary: string;
  at: Date;
}

/** Adds a notice; the same (kind, ref, recipient) twice is one notice (an event seen again). */
export async function addNotice(tx: Db | Tx, n: NewNotice): Promise<void> {
  await tx
    .insert(notices)
    .values({ orderId: n.orderId, recipient: n.recipient, kind: n.kind, refId: n.refId, summary: n.summary.slice(0, 300), createdAt: n.at })
    .onConflictDoNothing({ target: [notices.kind, notices.refId, notices.recipient] });
}

/** The recipient saw these kinds of the order in the app: their unsent notices will not be mailed. */
export async function markNoticesRead(db: Db | Tx, orderId: string, recipient: MessageSide, kinds: readonly NoticeKind[], now = new Date()): Promise<void> {
  await db
    .update(notices)
    .set({ readAt: now })
    .where(and(eq(notices.orderId, orderId), eq(notices.recipient, recipient), inArray(notices.kind, [...kinds]), isNull(notices.readAt), isNull(notices.sentAt)));
}

/** What each `order.seen` read shows of the order, as the notice kinds it makes read. */
export const SEEN_KINDS = {
  reviews: ['review_opened', 'review_decided', 'review_comment'],
  stages: ['stage_completed'],
  changes: ['change_requested', 'change_quoted'],
  // The back office's order page shows a submitted brief and new files as its tabs' badges.
  order: ['brief_submitted', 'customer_file'],
  files: ['customer_file'],
} as const satisfies Record<string, readonly NoticeKind[]>;

/**
 * Whether the order `orderIdSql` (e.g. `o.id`) has notices of `what` for `side` that its
 * `order.seen` would mark read, as a SQL boolean. A read folds it into its own statement and
 * publishes the event only then, instead of a transaction that changes nothing on every read
 * (docs/decisions/285-signed-in-read-path.md). The kinds waiting per side are kept in `order_reads`
 * by the database (migrations/1010_order_reads.sql, docs/decisions/317-order-reads-table.md).
 */
export function unseenNoticesSql(side: MessageSide, what: keyof typeof SEEN_KINDS, orderIdSql: string): string {
  const kinds = SEEN_KINDS[what].map((k) => `'${k}'`).join(', ');
  return `coalesce((select rd.waiting_${side} && array[${kinds}]::text[] from order_reads rd where rd.order_id = ${orderIdSql}), false)`;
}
