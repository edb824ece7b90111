import { z } from 'zod';
import { couponCodeInput } from './pricing.ts';
import { defineOperation } from './operation.ts';

/** POST /coupon/verifyCoupon (spec §7): success and discount_percent, plus why not. */
export const verifyCouponRequest = z.object({ coupon_code: couponCodeInput.min(1, 'coupon_code is required') });
export const verifyCouponResponse = z.object({
  success: z.boolean(),
  discount_percent: z.number(),
  kind: z.enum(['promo', 'referral']).optional(),
  message: z.string(),
});
export type VerifyCouponResponse = z.infer<typeof verifyCouponResponse>;

export const couponsByUserParams = z.object({ userId: z.string().max(64) });
/** GET /coupon/getCouponsByUserId/:userId — the first item is the user's own referral code. */
export const couponsByUserResponse = z.object({
  success: z.literal(true),
  coupons: z.array(z.object({ coupon_code: z.string(), kind: z.enum(['promo', 'referral']), discount_percent: z.number() })),
});

// Operations (docs/decisions/280-contract-operations.md).

/** Whether a coupon or referral code applies for the signed-in user */
export const postCouponVerifyCoupon = defineOperation({
  method: 'POST',
  path: '/api/v1/coupon/verifyCoupon',
  body: verifyCouponRequest,
  responses: { 200: verifyCouponResponse },
});

/** The signed-in user's codes; the first is their referral code */
export const getCouponGetCouponsByUserIdByUserId = defineOperation({
  method: 'GET',
  path: '/api/v1/coupon/getCouponsByUserId/:userId',
  params: couponsByUserParams,
  responses: { 200: couponsByUserResponse },
});
