import { z } from 'zod';

// Open advance checkouts (drafts) in the back office (issue 14.3).
export const checkoutDraft = z.object({
  orderId: z.string(),
  email: z.string(),
  createdAt: z.string(),
  currency: z.string(),
  advance: z.number().int(),
  couponCode: z.string().nullable(),
  followedUpAt: z.string().nullable(),
});
export type CheckoutDraft = z.infer<typeof checkoutDraft>;
export const checkoutDraftsResponse = z.object({
  success: z.literal(true),
  drafts: z.array(checkoutDraft),
  retentionDays: z.number().int(),
  followUpHours: z.number().int(),
});
export type CheckoutDraftsResponse = z.infer<typeof checkoutDraftsResponse>;
