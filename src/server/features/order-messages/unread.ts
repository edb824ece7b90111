import type { MessageSide } from '../../db/schema/order-messages.ts';

// Unread counts for order lists: messages of the other side after the side's read marker. A SQL
// expression, so a list reads them in its statement; the one rule for the unread count
// (docs/decisions/341-one-rule-per-derived-value.md), read from the index order_messages_by_order_sender.

const OTHER: Record<MessageSide, MessageSide> = { customer: 'agency', agency: 'customer' };

/** `(select count(*) …)::int` for the order whose id is `orderIdSql` (e.g. `o.id`), as `side` sees it. */
export function unreadMessagesSql(side: MessageSide, orderIdSql: string): string {
  return `(select count(*)::int from order_messages m where m.order_id = ${orderIdSql} and m.sender = '${OTHER[side]}'
             and m.seq > coalesce((select r.last_read_seq from order_message_reads r where r.order_id = ${orderIdSql} and r.side = '${side}'), 0))`;
}

/** The unread count of one order as `side` sees it. */
export async function unreadMessagesOf(
  database: { query<T>(sql: string, params?: unknown[]): Promise<T[]> },
  orderId: string,
  side: MessageSide,
): Promise<number> {
  const [row] = await database.query<{ n: number }>(`select ${unreadMessagesSql(side, '$1::uuid')} as n`, [orderId]);
  return Number(row?.n ?? 0);
}
