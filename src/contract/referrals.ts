import { z } from 'zod';
import { defineOperation } from './operation.ts';

export const cashbackEntry = z.object({
  orderDate: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  state: z.enum(['pending', 'earned', 'paid']),
});

/** GET /referral/summary — the signed-in user's code and cashback (pending/earned/paid). */
export const referralSummaryResponse = z.object({
  success: z.literal(true),
  code: z.string(),
  percent: z.number(),
  validUntil: z.string().nullable(),
  cashback: z.array(cashbackEntry),
  totals: z.array(z.object({ currency: z.string(), pending: z.number().int(), earned: z.number().int(), paid: z.number().int() })),
});
export type ReferralSummary = z.infer<typeof referralSummaryResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** The signed-in user's referral code and cashback */
export const getReferralSummary = defineOperation({
  method: 'GET',
  path: '/api/v1/referral/summary',
  responses: { 200: referralSummaryResponse },
});
