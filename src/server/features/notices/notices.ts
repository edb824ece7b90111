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
export async function markNoticesRead(
  db: Db | Tx,
  orderId: string,
  recipient: MessageSide,
  kinds: readonly NoticeKind[],
  now = new Date(),
): Promise<void> {
  await db
    .update(notices)
    .set({ readAt: now })
    .where(
      and(
        eq(notices.orderId, orderId),
        eq(notices.recipient, recipient),
        inArray(notices.kind, [...kinds]),
        isNull(notices.readAt),
        isNull(notices.sentAt),
      ),
    );
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
 * (docs/decisions/285-signed-in-read-path.md).
 */
export function unseenNoticesSql(side: MessageSide, what: keyof typeof SEEN_KINDS, orderIdSql: string): string {
  return waitingNoticesSql(`'${side}'`, SEEN_KINDS[what], orderIdSql);
}

/**
 * Whether notices of `kinds` wait for the recipient `recipientSql` (a SQL text: `'customer'`, or a
 * parameter such as `$3`) on the order `orderIdSql`: neither read nor mailed (markNoticesRead's and
 * the batched mail's rule), as a SQL boolean. The one rule for the waiting notices of the signed-in
 * reads (docs/decisions/341-one-rule-per-derived-value.md), by the index notices_waiting_kinds.
 */
export function waitingNoticesSql(recipientSql: string, kinds: readonly NoticeKind[], orderIdSql: string): string {
  const list = kinds.map((k) => `'${k}'`).join(', ');
  return (
    `exists (select 1 from notices n where n.order_id = ${orderIdSql} and n.recipient = ${recipientSql} and n.kind in ` +
    `(${list}) and n.read_at is null and n.sent_at is null)`
  );
}
