import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { CustomerDetailResponse } from '../../../contract/admin-customers.ts';
import type { Db } from '../../db/client.ts';
import { identities } from '../../db/schema/accounts.ts';
import { chatConversations } from '../../db/schema/chat.ts';
import { orders } from '../../db/schema/orders.ts';
import { ledgerTotalsSql } from '../ledger/lines.ts';
import { supportWindow, type SupportExtensionQuery } from '../support/support-window.ts';

// What other features know about a customer (orders, chat, sign-in).

const placed = ne(orders.state, 'awaiting_advance');

export async function orderCounts(db: Db, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: orders.userId, n: count() })
    .from(orders)
    .where(and(inArray(orders.userId, userIds), placed))
    .groupBy(orders.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.n)]));
}

export async function ordersOf(
  db: Db,
  userId: string,
  supportDays: number,
  supportExtension: SupportExtensionQuery | undefined,
  now = new Date(),
): Promise<CustomerDetailResponse['orders']> {
  const rows = await db
    .select({
      order: orders,
      completed: sql<number>`coalesce((select max(s.stage) from order_stages s where s.order_id = "orders"."id"), 0)::int`,
      // The order account's total (docs/decisions/320-order-ledger.md).
      total: sql<number>`(select t.charged from ${sql.raw(ledgerTotalsSql('"orders"."id"'))} t)`,
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), placed))
    .orderBy(desc(orders.createdAt));
  // Each order's support window (null until delivered; few orders per customer).
  const supportUntil = new Map<string, string>();
  for (const r of rows) {
    const window = await supportWindow(db, supportExtension, supportDays, r.order.id, now);
    if (window.supportUntil) supportUntil.set(r.order.id, window.supportUntil.toISOString());
  }
  return rows.map((r) => ({
    id: r.order.publicId,
    createdAt: r.order.createdAt.toISOString(),
    currency: r.order.currency,
    totalMinor: Number(r.total),
    completedStages: Number(r.completed),
    supportUntil: supportUntil.get(r.order.id) ?? null,
  }));
}

export async function conversationsOf(db: Db, userId: string): Promise<CustomerDetailResponse['conversations']> {
  const rows = await db
    .select({
      c: chatConversations,
      messages: sql<number>`(select count(*) from chat_messages m where m.conversation_id = "chat_conversations"."id")::int`,
    })
    .from(chatConversations)
    .where(eq(chatConversations.userId, userId))
    .orderBy(desc(chatConversations.createdAt))
    .limit(50);
  return rows.map((r) => ({ id: r.c.id, state: r.c.state, createdAt: r.c.createdAt.toISOString(), messages: Number(r.messages) }));
}

export async function signInMethodsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectDistinct({ provider: identities.provider }).from(identities).where(eq(identities.userId, userId));
  return rows.map((r) => r.provider).sort();
}
