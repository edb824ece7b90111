import { z } from 'zod';
import { defineOperation } from './operation.ts';

// Open advance checkouts (drafts) in the back office.
export const checkoutDraft = z.object({
  orderId: z.string(),
  email: z.string(),
  createdAt: z.string(),
  currency: z.string(),
  advance: z.number().int(),
  couponCode: z.string().nullable(),
  followedUpAt: z.string().nullable(),
  /** The customer's order paid since this draft (decision 128): no follow-up is needed. */
  paidOrderId: z.string().nullable(),
  /**
   * sent: the e-mail went out; pending: it will, once the draft is old enough; paid_since: the
   * customer paid an order since; newer_checkout: only their latest draft is followed up.
   */
  followUp: z.enum(['sent', 'pending', 'paid_since', 'newer_checkout']),
});
export type CheckoutDraft = z.infer<typeof checkoutDraft>;
export const checkoutDraftsResponse = z.object({
  success: z.literal(true),
  drafts: z.array(checkoutDraft),
  retentionDays: z.number().int(),
  followUpHours: z.number().int(),
});
export type CheckoutDraftsResponse = z.infer<typeof checkoutDraftsResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Advance checkouts opened and not paid */
export const getAdminCheckoutDrafts = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/checkout-drafts',
  responses: { 200: checkoutDraftsResponse },
});
