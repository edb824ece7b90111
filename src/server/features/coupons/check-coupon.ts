import { and, count, eq } from 'drizzle-orm';
import { normalizeCode } from '../../../domain/referral.ts';
import { formatStageDate } from '../../../domain/tracker.ts';
import type { Db } from '../../db/client.ts';
import { coupons } from '../../db/schema/coupons.ts';
import { couponRedemptions } from '../../db/schema/orders.ts';
import { alreadyUsedMessage, unavailable, usedUpMessage } from './coupon-limits.ts';

export type CouponRow = typeof coupons.$inferSelect;
export type CouponCheck =
  | { ok: true; coupon: CouponRow }
  | {
      ok: false;
      reason: 'unknown' | 'inactive' | 'not_started' | 'expired' | 'own_code' | 'used_up' | 'already_used' | 'not_payable';
      message: string;
    };

const day = (d: Date) => formatStageDate(d).replace(/ at .*$/, '');

/**
 * Whether `code` may be used by `userId` now: promo coupons by
 * their dates, activity and use limit; referral codes never by their owner and not after the
 * configured referral end date.
 */
export async function checkCoupon(
  db: Db,
  input: { userId: string; code: string; now?: Date; referralValidUntil: Date | null },
): Promise<CouponCheck> {
  const now = input.now ?? new Date();
  const code = normalizeCode(input.code);
  const [coupon] = code ? await db.select().from(coupons).where(eq(coupons.code, code)).limit(1) : [];
  if (!coupon) return { ok: false, reason: 'unknown', message: 'This code does not exist.' };
  const gone = unavailable(coupon, now);
  if (gone && gone.reason !== 'not_payable') return { ok: false, ...gone };
  if (coupon.kind === 'referral') {
    if (coupon.ownerUserId === input.userId) return { ok: false, reason: 'own_code', message: 'You cannot use your own referral code.' };
    if (input.referralValidUntil && input.referralValidUntil <= now) {
      return { ok: false, reason: 'expired', message: `The referral programme ended on ${day(input.referralValidUntil)}.` };
    }
  }
  if (gone) return { ok: false, ...gone };
  if (coupon.kind === 'promo' && coupon.maxUsesPerCustomer !== null) {
    const [mine] = await db
      .select({ n: count() })
      .from(couponRedemptions)
      .where(and(eq(couponRedemptions.couponId, coupon.id), eq(couponRedemptions.userId, input.userId)));
    if ((mine?.n ?? 0) >= coupon.maxUsesPerCustomer)
      return { ok: false, reason: 'already_used', message: alreadyUsedMessage(coupon.maxUsesPerCustomer) };
  }
  // A hint for the form; the limit itself is enforced under a lock at checkout (coupon-limits.ts).
  if (coupon.maxUses !== null) {
    const [used] = await db
      .select({ n: count() })
      .from(couponRedemptions)
      .where(and(eq(couponRedemptions.couponId, coupon.id)));
    if ((used?.n ?? 0) >= coupon.maxUses) return { ok: false, reason: 'used_up', message: usedUpMessage };
  }
  return { ok: true, coupon };
}
