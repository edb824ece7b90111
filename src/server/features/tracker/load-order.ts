import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { installments, orderStages, orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';

/**
 * One order with its installments and completed stages. `userId` restricts it to its owner; drafts
 * (advance not paid) are never returned, so they read as "not found" like anybody else's order.
 */
export async function loadOrder(db: Db, publicId: string, userId?: string) {
  const [row] = await db
    .select({ order: orders, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orders.publicId, publicId), ne(orders.state, 'awaiting_advance'), userId ? eq(orders.userId, userId) : undefined))
    .limit(1);
  if (!row) return null;
  const [parts, stages] = await Promise.all([
    db.select().from(installments).where(eq(installments.orderId, row.order.id)),
    db.select().from(orderStages).where(eq(orderStages.orderId, row.order.id)).orderBy(asc(orderStages.stage)),
  ]);
  const advance = parts.find((p) => p.kind === 'advance')!;
  const remaining = parts.find((p) => p.kind === 'remaining')!;
  return { ...row, advance, remaining, stages };
}

export type LoadedOrder = NonNullable<Awaited<ReturnType<typeof loadOrder>>>;
