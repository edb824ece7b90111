import type { MessageSide } from '../../db/schema/order-messages.ts';

// Unread counts for order lists: messages of the other side after the side's read marker, kept
// per order in `order_reads` by the database (migrations/1010_order_reads.sql,
// docs/decisions/317-order-reads-table.md). A SQL expression, so a list reads them in its statement.

/** `(select count(*) …)::int` for the order whose id is `orderIdSql` (e.g. `o.id`), as `side` sees it. */
export function unreadMessagesSql(side: MessageSide, orderIdSql: string): string {
  return `coalesce((select rd.unread_${side} from order_reads rd where rd.order_id = ${orderIdSql}), 0)`;
}

/** The unread count of one order as `side` sees it. */
export async function unreadMessagesOf(database: { query<T>(sql: string, params?: unknown[]): Promise<T[]> }, orderId: string, side: MessageSide): Promise<number> {
  const [row] = await database.query<{ n: number }>(`select ${unreadMessagesSql(side, '$1::uuid')} as n`, [orderId]);
  return Number(row?.n ?? 0);
}
