import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { REFERRAL_PERCENT, referralCodeFrom } from '../../../domain/referral.ts';
import type { Db } from '../../db/client.ts';
import { coupons } from '../../db/schema/coupons.ts';

/**
 * The user's one referral code (a coupon of kind 'referral'), created on first need so that this
 * feature does not depend on how accounts are created. Safe under concurrency: the partial unique
 * index on owner makes a second insert a no-op.
 */
export async function getOrCreateReferralCode(db: Db, userId: string): Promise<string> {
  const existing = await findReferralCode(db, userId);
  if (existing) return existing;
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = referralCodeFrom(randomBytes(8));
    await db
      .insert(coupons)
      .values({ code, kind: 'referral', percent: REFERRAL_PERCENT, ownerUserId: userId, description: 'Referral code' })
      .onConflictDoNothing();
    const found = await findReferralCode(db, userId);
    if (found) return found;
  }
  throw new Error('could not allocate a referral code');
}

async function findReferralCode(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ code: coupons.code })
    .from(coupons)
    .where(and(eq(coupons.ownerUserId, userId), eq(coupons.kind, 'referral')))
    .limit(1);
  return row?.code;
}
