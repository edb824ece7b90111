import { z } from 'zod';
import { defineOperation } from './operation.ts';

/**
 * GET /promotion: the featured promotion behind the banner, popup and countdown.
 * `endsAt` is an ISO time; null when the coupon has no end. `promotion` is null when none is
 * featured or the coupon is inactive. An ended promotion is still returned: the banner then reads
 * 'Offer expired!'.
 */
export const promotion = z.object({
  code: z.string(),
  percent: z.number().int(),
  endsAt: z.string().nullable(),
  description: z.string().nullable(),
});
export type Promotion = z.infer<typeof promotion>;

export const promotionResponse = z.object({ promotion: promotion.nullable() });
export type PromotionResponse = z.infer<typeof promotionResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** The featured promotion shown by the banner, popup and countdown */
export const getPromotion = defineOperation({
  method: 'GET',
  path: '/api/v1/promotion',
  responses: { 200: promotionResponse },
  errors: {},
});
