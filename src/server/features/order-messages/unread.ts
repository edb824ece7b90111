import type { MessageSide } from '../../db/schema/order-messages.ts';

// Unread counts for order lists: messages of the other side after the side's read marker. The order
// row holds them, kept by a trigger on order_messages and order_message_reads (migration 1010,
// docs/decisions/316-order-read-columns.md), so a list reads them as a column of its statement.

/** The unread count of the order row `ordersAlias` (e.g. `o`) as `side` sees it (an int column). */
export function unreadMessagesSql(side: MessageSide, ordersAlias: string): string {
  return `${ordersAlias}.unread_messages_${side === 'customer' ? 'customer' : 'agency'}`;
}

/** The unread count of one order as `side` sees it. */
export async function unreadMessagesOf(database: { query<T>(sql: string, params?: unknown[]): Promise<T[]> }, orderId: string, side: MessageSide): Promise<number> {
  const [row] = await database.query<{ n: number }>(`select ${unreadMessagesSql(side, 'o')} as n from orders o where o.id = $1::uuid`, [orderId]);
  return Number(row?.n ?? 0);
}
