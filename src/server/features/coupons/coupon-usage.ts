import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { coupons } from '../../db/schema/coupons.ts';
import { couponRedemptions } from '../../db/schema/orders.ts';

/** How many paid orders used each code (each paid advance writes one redemption). */
export async function couponUseCounts(db: Db, code?: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ code: coupons.code, n: count() })
    .from(couponRedemptions)
    .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
    .where(code ? eq(coupons.code, code) : undefined)
    .groupBy(coupons.code);
  return new Map(rows.map((r) => [r.code, Number(r.n)]));
}
