import { z } from 'zod';

export const currencySchema = z.object({
  code: z.string(),
  symbol: z.string(),
  factor: z.number(),
  minorDigits: z.number().int(),
});

/** GET /pricing/currencies — the configured table and the plan's base prices (spec §9). */
export const currenciesResponse = z.object({
  success: z.literal(true),
  currencies: z.array(currencySchema),
  defaultCurrency: z.string(),
  /** The currency for the visitor's country when the query names one. */
  suggestedCurrency: z.string(),
  plan: z.object({ id: z.string(), listPrice: z.number(), price: z.number() }),
  referral: z.object({ percent: z.number(), capBase: z.number() }),
});
export type CurrenciesResponse = z.infer<typeof currenciesResponse>;

export const currenciesQuery = z.object({ country: z.string().regex(/^[A-Za-z]{2}$/).optional() });

export const currencyCode = z.string().trim().regex(/^[A-Za-z]{3}$/, 'currency must be a 3-letter code').transform((s) => s.toUpperCase());
export const couponCodeInput = z.string().trim().max(40);

/** All amounts in integer minor units. */
export const quoteSchema = z.object({
  currency: z.string(),
  listPrice: z.number().int(),
  price: z.number().int(),
  discountPercent: z.number(),
  discount: z.number().int(),
  afterDiscount: z.number().int(),
  fee: z.number().int(),
  total: z.number().int(),
  advance: z.number().int(),
  remaining: z.number().int(),
});
export type QuoteDto = z.infer<typeof quoteSchema>;

export const appliedCouponSchema = z.object({ code: z.string(), kind: z.enum(['promo', 'referral']), percent: z.number() });

/** POST /pricing/quote — what /pay shows before paying the advance. */
export const quoteRequest = z.object({
  currency: currencyCode.optional(),
  couponCode: couponCodeInput.optional(),
});
export const quoteResponse = z.object({
  success: z.literal(true),
  quote: quoteSchema,
  symbol: z.string(),
  minorDigits: z.number().int(),
  coupon: appliedCouponSchema.nullable(),
  /** Why the code sent was not applied (the quote is then without discount). */
  couponError: z.string().optional(),
});
export type QuoteResponse = z.infer<typeof quoteResponse>;
