import { z } from 'zod';
import { COUPON_STATES, isValidWindow } from '../domain/admin.ts';
import { defineOperation } from './operation.ts';
import { uuidParams } from './admin.ts';

// Back office: promo coupons and the featured promotion (banner, popup, countdown).

export const couponCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9_-]{3,40}$/, 'Use 3 to 40 letters, digits, - or _.');

// 1–99: a 100 %-off order would cost nothing, which the payment provider refuses.
const percent = z.number().int('Percent must be a whole number.').min(1, 'Percent must be 1 to 99.').max(99, 'Percent must be 1 to 99.');
const when = z.iso.datetime({ offset: true }).nullable();
const description = z.string().trim().max(200).nullable();
const maxUses = z.number().int().min(1).max(1_000_000).nullable();
/** Paid orders one customer may make with the code; null = no per-customer limit (default 1). */
const maxUsesPerCustomer = z.number().int().min(1, 'Uses per customer must be at least 1.').max(1000).nullable();

const windowIssue = { message: 'The end must be after the start.', path: ['validUntil'] };

export const createCouponBody = z
  .object({
    code: couponCode,
    percent,
    description: description.optional(),
    validFrom: when.optional(),
    validUntil: when.optional(),
    maxUses: maxUses.optional(),
    maxUsesPerCustomer: maxUsesPerCustomer.optional(),
  })
  .refine((b) => isValidWindow(b.validFrom, b.validUntil), windowIssue);
export type CreateCouponBody = z.input<typeof createCouponBody>;

/** The code is fixed once created: orders already refer to it. */
export const updateCouponBody = z
  .object({
    percent: percent.optional(),
    description: description.optional(),
    validFrom: when.optional(),
    validUntil: when.optional(),
    maxUses: maxUses.optional(),
    maxUsesPerCustomer: maxUsesPerCustomer.optional(),
    active: z.boolean().optional(),
  })
  .refine((b) => isValidWindow(b.validFrom, b.validUntil), windowIssue);
export type UpdateCouponBody = z.input<typeof updateCouponBody>;

export const adminCoupon = z.object({
  id: z.string(),
  code: z.string(),
  percent: z.number(),
  description: z.string().nullable(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  active: z.boolean(),
  maxUses: z.number().nullable(),
  maxUsesPerCustomer: z.number().nullable(),
  redemptions: z.number(),
  /** The one state at the server's clock (decision 127); `active` above is only the switch. */
  state: z.enum(COUPON_STATES),
  featured: z.boolean(),
  createdAt: z.string(),
});
export type AdminCoupon = z.infer<typeof adminCoupon>;

export const adminReferralCode = z.object({
  id: z.string(),
  code: z.string(),
  percent: z.number(),
  active: z.boolean(),
  ownerUserId: z.string(),
  ownerEmail: z.string(),
  ownerName: z.string().nullable(),
  uses: z.number(),
});
export type AdminReferralCode = z.infer<typeof adminReferralCode>;

export const couponListResponse = z.object({
  promos: z.array(adminCoupon),
  referrals: z.array(adminReferralCode),
  featuredCode: z.string().nullable(),
});
export type CouponListResponse = z.infer<typeof couponListResponse>;

export const couponResponse = z.object({ coupon: adminCoupon });

export const featurePromotionBody = z.object({ couponCode });
export const featurePromotionResponse = z.object({ featuredCode: z.string() });

// Operations (docs/decisions/280-contract-operations.md).

/** Promo coupons with redemptions, referral codes with uses, featured code */
export const getAdminCoupons = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/coupons',
  responses: { 200: couponListResponse },
});

/** Create a promo coupon */
export const postAdminCoupons = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/coupons',
  body: createCouponBody,
  responses: { 201: couponResponse },
});

/** Edit a promo coupon (percent, description, validity, max uses, active) */
export const patchAdminCouponsById = defineOperation({
  method: 'PATCH',
  path: '/api/v1/admin/coupons/:id',
  params: uuidParams,
  body: updateCouponBody,
  responses: { 200: couponResponse },
});

/** Deactivate a promo coupon */
export const postAdminCouponsDeactivate = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/coupons/:id/deactivate',
  params: uuidParams,
  responses: { 200: couponResponse },
});

/** Choose the promo coupon that drives the banner, popup and countdown */
export const putAdminPromotion = defineOperation({
  method: 'PUT',
  path: '/api/v1/admin/promotion',
  body: featurePromotionBody,
  responses: { 200: featurePromotionResponse },
});
