import { and, count, eq, gt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { coupons } from '../../db/schema/coupons.ts';
import { couponRedemptions, orders } from '../../db/schema/orders.ts';
import { badRequest } from '../../lib/app-error.ts';

// Use limits of a code, enforced atomically (docs/decisions/092-coupon-limits.md): the coupon row
// is locked (SELECT … FOR UPDATE) while uses are counted, at checkout start and at settlement, so
// two transactions can never both take the last use — on PGlite and PostgreSQL alike.

/** How long an advance checkout holds a use of a limited code. */
export const COUPON_HOLD_MINUTES = 30;

type CouponLimits = Pick<typeof coupons.$inferSelect, 'id' | 'kind' | 'maxUses' | 'maxUsesPerCustomer'>;

async function lockCoupon(tx: Db, couponId: string): Promise<CouponLimits | undefined> {
  const [row] = await tx
    .select({ id: coupons.id, kind: coupons.kind, maxUses: coupons.maxUses, maxUsesPerCustomer: coupons.maxUsesPerCustomer })
    .from(coupons)
    .where(eq(coupons.id, couponId))
    .for('update');
  return row;
}

const perCustomerLimit = (c: CouponLimits) => (c.kind === 'promo' ? c.maxUsesPerCustomer : null);

async function redemptions(tx: Db, couponId: string, userId?: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(couponRedemptions)
    .where(userId ? and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.userId, userId)) : eq(couponRedemptions.couponId, couponId));
  return Number(row?.n ?? 0);
}

/** Live holds of other customers' unpaid advance checkouts (optionally not counting one order). */
async function holdsOfOthers(tx: Db, couponId: string, userId: string, exceptOrderId?: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(orders)
    .where(
      and(
        eq(orders.couponId, couponId),
        eq(orders.state, 'awaiting_advance'),
        gt(orders.couponHoldUntil, sql`now()`),
        ne(orders.userId, userId),
        exceptOrderId ? ne(orders.id, exceptOrderId) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

export const usedUpMessage = 'This code has been used up.';
export const alreadyUsedMessage = (limit: number) =>
  limit === 1 ? 'You have already used this code.' : `You have already used this code ${limit} times, the most allowed per customer.`;

/**
 * At checkout start, in the transaction that writes the order: refuses (400) a code whose uses are
 * all paid or held by other customers' open checkouts, or that this customer has used up, and
 * returns until when the new order holds its use (null for a code without limits).
 */
export async function holdCouponUse(tx: Db, couponId: string, userId: string): Promise<Date | null> {
  const c = await lockCoupon(tx, couponId);
  if (!c) throw badRequest('This code does not exist.');
  const perCustomer = perCustomerLimit(c);
  if (perCustomer !== null && (await redemptions(tx, c.id, userId)) >= perCustomer) throw badRequest(alreadyUsedMessage(perCustomer));
  if (c.maxUses !== null && (await redemptions(tx, c.id)) + (await holdsOfOthers(tx, c.id, userId)) >= c.maxUses) throw badRequest(usedUpMessage);
  return c.maxUses !== null || perCustomer !== null ? new Date(Date.now() + COUPON_HOLD_MINUTES * 60_000) : null;
}

/**
 * At settlement of an advance, in the settling transaction: whether the order may keep its code.
 * Its own live hold guarantees a use; after the hold expired it gets one only if no other
 * customer's live hold needs it. The per-customer limit counts paid orders only.
 */
export async function mayRedeem(tx: Db, order: { id: string; userId: string; couponId: string; couponHoldUntil: Date | null }, now: Date): Promise<boolean> {
  const c = await lockCoupon(tx, order.couponId);
  if (!c) return false;
  const perCustomer = perCustomerLimit(c);
  if (perCustomer !== null && (await redemptions(tx, c.id, order.userId)) >= perCustomer) return false;
  if (c.maxUses === null) return true;
  const used = await redemptions(tx, c.id);
  if (used >= c.maxUses) return false;
  const ownHold = order.couponHoldUntil !== null && order.couponHoldUntil > now;
  return ownHold || used + (await holdsOfOthers(tx, c.id, order.userId, order.id)) < c.maxUses;
}
