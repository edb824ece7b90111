import { z } from 'zod';
import { defineOperation } from './operation.ts';
import { uuidParams } from './admin.ts';

// Back office: the referral cashback ledger per referrer and its payouts.

export const cashbackQuery = z.object({ state: z.enum(['pending', 'earned', 'paid']).optional() });

const sums = z.array(z.object({ currency: z.string(), amount: z.number() }));

export const cashbackEntry = z.object({
  id: z.string(),
  orderId: z.string(),
  buyerEmail: z.string(),
  amount: z.number(),
  currency: z.string(),
  state: z.enum(['pending', 'earned', 'paid']),
  createdAt: z.string(),
  earnedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  payoutReference: z.string().nullable(),
});
export type CashbackEntry = z.infer<typeof cashbackEntry>;

export const cashbackReferrer = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  pending: sums,
  earned: sums,
  paid: sums,
  entries: z.array(cashbackEntry),
});
export type CashbackReferrer = z.infer<typeof cashbackReferrer>;

export const cashbackListResponse = z.object({ referrers: z.array(cashbackReferrer) });
export type CashbackListResponse = z.infer<typeof cashbackListResponse>;

export const markPaidBody = z.object({
  payoutReference: z.string().trim().min(1, 'Enter the payout reference.').max(200, 'The reference can be at most 200 characters.'),
});
export const markPaidResponse = z.object({ entry: cashbackEntry });

// Operations (docs/decisions/280-contract-operations.md).

/** Referral cashback ledger per referrer (pending / earned / paid) */
export const getAdminCashback = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/cashback',
  query: cashbackQuery,
  responses: { 200: cashbackListResponse },
});

/** Mark earned cashback paid, with the payout reference */
export const postAdminCashbackPaid = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/cashback/:id/paid',
  params: uuidParams,
  body: markPaidBody,
  responses: { 200: markPaidResponse },
});
