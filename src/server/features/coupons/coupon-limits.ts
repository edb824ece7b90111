import { and, count, countDistinct, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import { formatStageDate } from '../../../domain/tracker.ts';
import type { Db } from '../../db/client.ts';
import { coupons } from '../../db/schema/coupons.ts';
import { couponRedemptions, orders } from '../../db/schema/orders.ts';
import { badRequest } from '../../lib/app-error.ts';

// Use limits of a code, enforced atomically (docs/decisions/092-coupon-limits.md): the coupon row
// is locked (SELECT … FOR UPDATE) while uses are counted, at checkout start and at settlement, so
// two transactions can never both take the last use — on PGlite and PostgreSQL alike.

/** How long an advance checkout holds a use of a limited code. */
export const COUPON_HOLD_MINUTES = 30;

type CouponRow = typeof coupons.$inferSelect;
type CouponLimits = Pick<CouponRow, 'id' | 'kind' | 'maxUses' | 'maxUsesPerCustomer' | 'active' | 'validFrom' | 'validUntil' | 'percent'>;

const day = (d: Date) => formatStageDate(d).replace(/ at .*$/, '');

export type UnavailableReason = 'inactive' | 'not_started' | 'expired' | 'not_payable';

/**
 * Why a code cannot be used at `now` whoever asks — switched off, outside its dates, or a free order
 * the provider refuses — or null. Checked by verifyCoupon/quote and again under the coupon's lock
 * at checkout, so a code switched off or expiring while a checkout starts is not held.
 */
export function unavailable(
  c: Pick<CouponRow, 'active' | 'validFrom' | 'validUntil' | 'percent'>,
  now: Date,
): { reason: UnavailableReason; message: string } | null {
  if (!c.active) return { reason: 'inactive', message: 'This code is no longer active.' };
  if (c.validFrom && c.validFrom > now) return { reason: 'not_started', message: `This code is valid from ${day(c.validFrom)}.` };
  if (c.validUntil && c.validUntil <= now) return { reason: 'expired', message: `This code expired on ${day(c.validUntil)}.` };
  // A free order cannot be paid (the provider refuses amount 0); the back office allows 1–99 %.
  if (c.percent >= 100) return { reason: 'not_payable', message: 'This code cannot be used for an online payment. Please contact us.' };
  return null;
}

async function lockCoupon(tx: Db, couponId: string): Promise<CouponLimits | undefined> {
  const [row] = await tx
    .select({
      id: coupons.id,
      kind: coupons.kind,
      maxUses: coupons.maxUses,
      maxUsesPerCustomer: coupons.maxUsesPerCustomer,
      active: coupons.active,
      validFrom: coupons.validFrom,
      validUntil: coupons.validUntil,
      percent: coupons.percent,
    })
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
    .where(
      userId
        ? and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.userId, userId))
        : eq(couponRedemptions.couponId, couponId),
    );
  return Number(row?.n ?? 0);
}

/**
 * How many other customers hold a use with a live unpaid advance checkout (optionally not counting
 * one order). Counted per customer: a customer holds at most one use of a code however many
 * checkouts they open (holdCouponUse moves the hold to the newest).
 */
async function holdsOfOthers(tx: Db, couponId: string, userId: string, exceptOrderId?: string) {
  const [row] = await tx
    .select({ n: countDistinct(orders.userId) })
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
export async function holdCouponUse(tx: Db, couponId: string, userId: string, now = new Date()): Promise<Date | null> {
  const c = await lockCoupon(tx, couponId);
  if (!c) throw badRequest('This code does not exist.');
  // Checked again under the lock: the code may have been switched off or expired since the quote.
  const gone = unavailable(c, now);
  if (gone) throw badRequest(gone.message);
  // One live hold per customer and code: a new checkout takes over the hold of their earlier ones,
  // so opening many checkouts cannot hold every use of a limited code (an earlier checkout paid
  // later keeps the code only if a use is still free — mayRedeem).
  await tx
    .update(orders)
    .set({ couponHoldUntil: null })
    .where(
      and(eq(orders.couponId, c.id), eq(orders.userId, userId), eq(orders.state, 'awaiting_advance'), isNotNull(orders.couponHoldUntil)),
    );
  const perCustomer = perCustomerLimit(c);
  if (perCustomer !== null && (await redemptions(tx, c.id, userId)) >= perCustomer) throw badRequest(alreadyUsedMessage(perCustomer));
  if (c.maxUses !== null && (await redemptions(tx, c.id)) + (await holdsOfOthers(tx, c.id, userId)) >= c.maxUses)
    throw badRequest(usedUpMessage);
  return c.maxUses !== null || perCustomer !== null ? new Date(now.getTime() + COUPON_HOLD_MINUTES * 60_000) : null;
}

/**
 * At settlement of an advance, in the settling transaction: whether the order may keep its code.
 * Its own live hold guarantees a use; after the hold expired it gets one only if no other
 * customer's live hold needs it. The per-customer limit counts paid orders only.
 */
export async function mayRedeem(
  tx: Db,
  order: { id: string; userId: string; couponId: string; couponHoldUntil: Date | null },
  now: Date,
): Promise<boolean> {
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
