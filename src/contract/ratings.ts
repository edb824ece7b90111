import { z } from 'zod';
import { multiLine } from './text-policy.ts';
import { defineOperation } from './operation.ts';
import { supportParams, supportRequestParams } from './support.ts';

// Ratings of support requests and of delivered orders (docs/decisions/214-ratings.md).

export const RATING_COMMENT_MAX = 2000;
/** A score at or below this alerts the founder by mail at once. */
export const LOW_RATING = 2;
export const RATING_AVERAGE_DAYS = 90;

const score = z
  .number({ message: 'score must be a whole number from 1 to 5.' })
  .int({ message: 'score must be a whole number from 1 to 5.' })
  .min(1, { message: 'score must be a whole number from 1 to 5.' })
  .max(5, { message: 'score must be a whole number from 1 to 5.' });
const comment = multiLine(
  z
    .string()
    .trim()
    .max(RATING_COMMENT_MAX, { message: `A comment can be at most ${RATING_COMMENT_MAX.toLocaleString('en')} characters.` }),
).optional();

export const supportRatingBody = z.object({ score, comment });
export type SupportRatingBody = z.infer<typeof supportRatingBody>;

export const orderRatingBody = z.object({ score, comment, mayQuote: z.boolean().optional() });
export type OrderRatingBody = z.infer<typeof orderRatingBody>;

export const RATING_KINDS = ['support', 'order'] as const;

export const rating = z.object({
  id: z.string(),
  kind: z.enum(RATING_KINDS),
  orderId: z.string(),
  supportRequestId: z.string().nullable(),
  score: z.number().int(),
  comment: z.string().nullable(),
  mayQuote: z.boolean(),
  createdAt: z.string(),
});
export type Rating = z.infer<typeof rating>;

export const ratingResponse = z.object({ success: z.literal(true), rating });

/** The founder's list: newest first, with the average of the last 90 days. */
export const adminRatingsResponse = z.object({
  success: z.literal(true),
  ratings: z.array(rating.extend({ customerEmail: z.string().nullable(), customerName: z.string().nullable() })),
  average90Days: z.number().nullable(),
  count90Days: z.number().int(),
  /** Additive (docs/decisions/347-chat-availability-canned-replies-csat.md): the live chat's CSAT, average of the last 30 days. */
  chat: z.object({ average30Days: z.number().nullable(), count30Days: z.number().int() }).optional(),
});
export type AdminRatingsResponse = z.infer<typeof adminRatingsResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Rates a delivered order once (1–5, an optional comment and permission to quote it); again is a 409 */
export const postOrdersRating = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/rating',
  params: supportParams,
  body: orderRatingBody,
  responses: { 201: ratingResponse },
});

/** Rates a resolved support request once (1–5 and an optional comment); before it is resolved or again is a 409 */
export const postOrdersSupportRequestsRating = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/support/requests/:requestId/rating',
  params: supportRequestParams,
  body: supportRatingBody,
  responses: { 201: ratingResponse },
});

/** Ratings, newest first, with the average score of the last 90 days */
export const getAdminRatings = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/ratings',
  responses: { 200: adminRatingsResponse },
});

/** The ratings the customer gave on a delivered order: the order's own and each support request's */
export const getOrdersRatings = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/ratings',
  params: supportParams,
  responses: { 200: z.object({ success: z.literal(true), ratings: z.array(rating) }) },
});
