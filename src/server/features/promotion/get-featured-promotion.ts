import type { Promotion } from '../../../contract/promotion.ts';
import type { AppDeps } from '../../deps.ts';

/**
 * The coupon named by the 'featured_promotion' setting (the founder changes it in the back office).
 * An inactive or missing coupon means no promotion; an ended one is still returned so the banner
 * can say 'Offer expired!'.
 */
export async function getFeaturedPromotion(deps: AppDeps): Promise<Promotion | null> {
  const rows = await deps.database.query<{ code: string; percent: number; valid_until: Date | string | null; description: string | null }>(
    `select c.code, c.percent, c.valid_until, c.description
       from site_settings s
       join coupons c on c.code = upper(s.value->>'couponCode')
      where s.key = 'featured_promotion' and c.active and c.kind = 'promo'`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    code: row.code,
    percent: row.percent,
    endsAt: row.valid_until === null ? null : new Date(row.valid_until).toISOString(),
    description: row.description,
  };
}
