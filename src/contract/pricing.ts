import { z } from 'zod';
import { defineOperation } from './operation.ts';

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

export const currenciesQuery = z.object({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .optional(),
});

export const currencyCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, 'currency must be a 3-letter code')
  .transform((s) => s.toUpperCase());
export const couponCodeInput = z.string().trim().max(40);

/** One tax of a quote or document: CGST + SGST within the seller's state, IGST across (docs/decisions/220-gst-tax-rules.md). */
export const taxLineSchema = z.object({ kind: z.enum(['CGST', 'SGST', 'IGST']), rate: z.number(), amount: z.number().int() });
export const supplyTypeSchema = z.enum(['intra', 'inter', 'export', 'none']);
export const placeOfSupplySchema = z.object({ code: z.string(), name: z.string() });

/** All amounts in integer minor units. */
export const quoteSchema = z.object({
  currency: z.string(),
  listPrice: z.number().int(),
  price: z.number().int(),
  discountPercent: z.number(),
  discount: z.number().int(),
  afterDiscount: z.number().int(),
  fee: z.number().int(),
  /** Price after discount plus fee, without tax: what the tax is charged on. */
  taxableValue: z.number().int(),
  taxes: z.array(taxLineSchema),
  supplyType: supplyTypeSchema,
  placeOfSupply: placeOfSupplySchema,
  /** Taxable value plus taxes. */
  total: z.number().int(),
  advance: z.number().int(),
  remaining: z.number().int(),
});
export type QuoteDto = z.infer<typeof quoteSchema>;

/**
 * One line of the one description of an order's price (src/domain/price-lines.ts): the quote, the
 * pay screen and the documents show these lines in these words.
 */
export const priceLineSchema = z.object({
  key: z.enum([
    'list_price',
    'offer_reduction',
    'discount',
    'platform_fee',
    'tax_included',
    'taxable_value',
    'tax',
    'zero_rated',
    'rounding',
    'total',
  ]),
  label: z.string(),
  /** Signed minor units: reductions negative. */
  amount: z.number().int(),
  /** How the order's ledger posts it; null for a subtotal (taxable value, total). */
  posts: z.enum(['charge', 'discount', 'tax']).nullable(),
  taxKind: z.enum(['CGST', 'SGST', 'IGST']).optional(),
});
export type PriceLineDto = z.infer<typeof priceLineSchema>;

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
  /** The quote line by line, in the words the receipt voucher and the invoice use (added; `quote` keeps the figures). */
  lines: z.array(priceLineSchema),
  /** Why the code sent was not applied (the quote is then without discount). */
  couponError: z.string().optional(),
});
export type QuoteResponse = z.infer<typeof quoteResponse>;

/**
 * The tax an order was quoted with, frozen on the order (migration 0920): the documents of its
 * payments are computed from it, never from billing details or settings changed later.
 */
export interface OrderTax {
  regime: 'none' | 'gst';
  rate: number;
  pricesIncludeTax: boolean;
  sellerStateCode: string | null;
  lutValid: boolean;
  supplyType: z.infer<typeof supplyTypeSchema>;
  placeOfSupply: z.infer<typeof placeOfSupplySchema>;
  taxableValue: number;
  taxes: z.infer<typeof taxLineSchema>[];
  buyer: { country: string; stateCode: string | null; gstin: string | null };
}

// Operations (docs/decisions/280-contract-operations.md).

/** Currency table, plan prices and the currency for a country */
export const getPricingCurrencies = defineOperation({
  method: 'GET',
  path: '/api/v1/pricing/currencies',
  query: currenciesQuery,
  responses: { 200: currenciesResponse },
});

/** The server's quote for a new order (amounts in minor units) */
export const postPricingQuote = defineOperation({
  method: 'POST',
  path: '/api/v1/pricing/quote',
  body: quoteRequest,
  responses: { 200: quoteResponse },
});
