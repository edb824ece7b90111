import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { installments, orders } from '../../db/schema/orders.ts';

/**
 * For the plan's tests: an order in a given state, both installments paid as a delivered order's
 * are (the admin order detail reads them). Only tests import this.
 */
export async function insertOrder(db: Db, userId: string, state: 'in_progress' | 'delivered' = 'delivered', currency = 'USD') {
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
  return order!;
}
