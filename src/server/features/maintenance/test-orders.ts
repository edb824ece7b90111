import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { installments, orderStages, orders } from '../../db/schema/orders.ts';

/**
 * For the plan's tests: an order in a given state, both installments paid as a delivered order's
 * are (the admin order detail reads them); a delivered one was delivered `deliveredDaysAgo` days ago
 * (stage 15, where the support window starts). Only tests import this.
 */
export async function insertOrder(db: Db, userId: string, state: 'in_progress' | 'delivered' = 'delivered', currency = 'USD', deliveredDaysAgo = 30) {
  const publicId = `ORD-M${randomBytes(4).toString('hex').toUpperCase()}`;
  const [order] = await db
    .insert(orders)
    .values({ publicId, userId, planId: 'website-standard', currency, listPrice: 99900, price: 89900, fee: 1798, total: 91698, state })
    .returning();
  const paidAt = new Date();
  await db.insert(installments).values([
    { orderId: order!.id, kind: 'advance', amount: 18339, currency, state: 'paid', paidAt, providerPaymentId: `pay_a_${publicId}` },
    { orderId: order!.id, kind: 'remaining', amount: 73359, currency, state: 'paid', paidAt, providerPaymentId: `pay_r_${publicId}` },
  ]);
  if (state === 'delivered') {
    const completedAt = new Date(Date.now() - deliveredDaysAgo * 86_400_000);
    await db.insert(orderStages).values(Array.from({ length: 15 }, (_, i) => ({ orderId: order!.id, stage: i + 1, completedAt })));
  }
  return order!;
}
