import { z } from 'zod';
import { safeString } from './text-policy.ts';
import { gstinProblem, stateByCode } from '../domain/gst.ts';
import { findCountryByCode } from '../domain/countries.ts';
import { defineOperation } from './operation.ts';
import type { PriceLine } from '../domain/price-lines.ts';

// Tax invoices: billing details the customer may give before paying, the invoices of
// an order, and the snapshot frozen into every invoice at issue.

/**
 * Printable text under the one string policy (decisions 090 and 130): a NUL, a lone surrogate or a
 * control character is refused — the same whether the HTTP validator already applied the policy
 * or the schema is used on its own.
 */
const printable = (max: number, what: string, lines: { multiLine?: boolean } = {}) =>
  safeString(lines).trim().max(max, `${what} can be at most ${max} characters.`);

/** A GSTIN, VAT or other tax id: letters, digits and - / . only (so no markup can hide in it). */
export const taxIdSchema = z
  .string()
  .trim()
  .max(20, 'The tax id can be at most 20 characters.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ./-]*$|^$/, 'The tax id may contain only letters, digits, spaces and - / .');

/**
 * The place of supply (docs/decisions/220-gst-tax-rules.md): `country` ISO 3166-1 alpha-2,
 * `stateCode` the GST code of an Indian state (India only, required there), `gstin` a registered
 * buyer's GSTIN whose first two digits must be that state. `taxId` stays for foreign tax ids.
 */
export const billingDetailsBody = z
  .object({
    billingName: printable(120, 'The billing name').optional().default(''),
    billingAddress: printable(500, 'The billing address', { multiLine: true }).optional().default(''),
    taxId: taxIdSchema.optional().default(''),
    country: z
      .string({ message: 'country must be a two-letter country code, e.g. IN' })
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter country code, e.g. IN')
      .transform((v) => v.toUpperCase())
      .refine((v) => findCountryByCode(v) !== undefined, 'country is not a known country code')
      .optional(),
    stateCode: z.string({ message: 'stateCode must be a two-digit GST state code, e.g. 29' }).trim().optional().default(''),
    gstin: z.string({ message: 'gstin must be text' }).trim().max(40, 'gstin must be exactly 15 characters').optional().default(''),
  })
  .superRefine((b, ctx) => {
    const india = (b.country ?? 'IN') === 'IN';
    if (b.stateCode) {
      if (!india)
        ctx.addIssue({ code: 'custom', path: ['stateCode'], message: 'stateCode is for India only: leave it empty for another country' });
      else if (!stateByCode(b.stateCode))
        ctx.addIssue({
          code: 'custom',
          path: ['stateCode'],
          message: 'stateCode must be the two-digit GST code of an Indian state or union territory, e.g. 29',
        });
    } else if (b.country === 'IN') {
      ctx.addIssue({ code: 'custom', path: ['stateCode'], message: 'stateCode is required for India: choose your state' });
    }
    if (b.gstin) {
      const problem = gstinProblem(b.gstin);
      if (problem) ctx.addIssue({ code: 'custom', path: ['gstin'], message: `gstin ${problem}` });
      else if (!india) ctx.addIssue({ code: 'custom', path: ['gstin'], message: 'gstin is for buyers in India only' });
      else if (b.stateCode && b.gstin.slice(0, 2) !== b.stateCode)
        ctx.addIssue({
          code: 'custom',
          path: ['gstin'],
          message: `gstin is registered in state ${b.gstin.slice(0, 2)}, not the state chosen (${b.stateCode})`,
        });
    }
  });
export type BillingDetailsBody = z.input<typeof billingDetailsBody>;

export const billingDetails = z.object({
  billingName: z.string(),
  billingAddress: z.string(),
  taxId: z.string(),
  /** Empty when not given yet (the quote then assumes the country of the visitor). */
  country: z.string(),
  stateCode: z.string(),
  gstin: z.string(),
});
export type BillingDetails = z.infer<typeof billingDetails>;
export const billingDetailsResponse = z.object({
  success: z.literal(true),
  billing: billingDetails,
});

/**
 * The numbering series (each gap-free per financial year). 'test_invoice': every document of a
 * payment taken in test mode, numbered apart (decision 120); the others in
 * docs/decisions/221-gst-documents.md.
 */
export const INVOICE_SERIES = ['invoice', 'credit_note', 'test_invoice', 'receipt_voucher', 'refund_voucher'] as const;
export type InvoiceSeries = (typeof INVOICE_SERIES)[number];

/** What a document is: the GST kinds, or "invoice" / "receipt" of a supplier not registered. */
export const DOCUMENT_KINDS = ['receipt_voucher', 'tax_invoice', 'refund_voucher', 'credit_note', 'invoice', 'receipt'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const invoiceSummary = z.object({
  id: z.string(),
  number: z.string(),
  series: z.enum(INVOICE_SERIES),
  kind: z.enum(DOCUMENT_KINDS),
  /** The installment it is for (null: a maintenance charge or a correction). */
  installment: z.enum(['advance', 'remaining']).nullable(),
  /** What a maintenance charge's document is for: "Maintenance, Dec 2027" (docs/decisions/269-maintenance-in-lists-and-revenue.md); else absent. */
  label: z.string().optional(),
  testMode: z.boolean(),
  amount: z.number().int(),
  currency: z.string(),
  issuedAt: z.string(),
  /** The IANA zone the invoice's date is printed in (its financial year's zone). */
  timeZone: z.string(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummary>;
export const orderInvoicesResponse = z.object({
  success: z.literal(true),
  invoices: z.array(invoiceSummary),
});
/** A PDF file (application/pdf), described for the OpenAPI document. */
export const pdfResponse = z.unknown().describe('application/pdf');
export const invoiceIdParams = z.object({ id: z.string().uuid() });
export const orderIdParams = z.object({ id: z.string().min(1).max(40) });

/** Everything printed on an invoice, frozen at issue (amounts in minor units of `currency`). */
export interface InvoiceSnapshot {
  seller: {
    legalName: string;
    address: string;
    taxId: string | null;
    email: string;
  };
  buyer: {
    name: string;
    email: string;
    address: string | null;
    taxId: string | null;
  };
  orderPublicId: string;
  description: string;
  currency: string;
  minorDigits: number;
  listPrice: number;
  price: number;
  discount: number;
  discountPercent: number;
  couponCode: string | null;
  fee: number;
  total: number;
  installment: { kind: 'advance' | 'remaining' | 'maintenance' | 'change'; label: string; amount: number };
  /** A paid change request (docs/decisions/250-change-requests.md): its title; absent on other invoices. */
  change?: { id: string; title: string };
  /** A maintenance-plan charge: the month it pays for; absent on order invoices. */
  charge?: { periodStart: string; periodEnd: string };
  paidBefore: number;
  remainingAfter: number;
  /** The payment documented; on a refund voucher or a credit note for a refund: the refund's own reference and date. */
  paymentId: string;
  paidAt: string;
  /**
   * A refund's document: the original payment it returns and that payment's document
   * (docs/decisions/334-refund-footer-and-env-example.md); absent on documents of payments and on older refund documents.
   */
  refundOf?: { paymentId: string; paidAt: string; documentNumber: string };
  /** The IANA zone the dates are printed in: INVOICE_TIME_ZONE at issue, the zone of the financial year. Older snapshots lack it. */
  timeZone?: string;
  /**
   * The order's price line by line at issue, in the words of the quote (src/domain/price-lines.ts,
   * docs/decisions/333-amount-words-and-price-lines.md); order documents from before it lack it.
   */
  lines?: PriceLine[];
  /** What the document is and its tax (migration 0920, docs/decisions/221-gst-documents.md); older snapshots lack it. */
  document?: DocumentTax;
}

/** The tax part of a document, frozen at issue: everything the monthly return (GSTR-1) needs. */
export interface DocumentTax {
  kind: DocumentKind;
  regime: 'none' | 'gst';
  testMode: boolean;
  /** SAC of the service (GST_SAC). */
  sac: string;
  supplyType: 'intra' | 'inter' | 'export' | 'none';
  placeOfSupply: { code: string; name: string };
  seller: { gstin: string | null; stateCode: string | null; stateName: string | null };
  buyer: { country: string; countryName: string; stateCode: string | null; gstin: string | null };
  /** The value this document taxes (the advance's share for a receipt voucher, the whole supply for a tax invoice). */
  taxableValue: number;
  taxes: { kind: 'CGST' | 'SGST' | 'IGST'; rate: number; amount: number }[];
  /** Taxable value plus taxes: the document's value. */
  value: number;
  /** A tax invoice's adjustment of the advance; a refund voucher's receipt voucher. */
  adjusts: {
    number: string;
    issuedAt: string;
    amount: number;
    taxableValue: number;
    taxes: { kind: 'CGST' | 'SGST' | 'IGST'; rate: number; amount: number }[];
  } | null;
  /** What was paid (or refunded) with this document. */
  amountPaid: number;
  amountInWords: string;
  reverseCharge: false;
  /** An export: the LUT it is made under (null: with IGST) and its INR value at the rate used. */
  export: { lutArn: string | null; lutValidUntil: string | null } | null;
  /** A document in another currency than INR: rupees per unit from CURRENCY_TABLE and the date it is taken on. */
  inr: { rate: number; rateDate: string; value: number } | null;
}

// Operations (docs/decisions/280-contract-operations.md).

/** Your optional billing name, address and tax id */
export const getInvoicesBillingDetails = defineOperation({
  method: 'GET',
  path: '/api/v1/invoices/billing-details',
  responses: { 200: billingDetailsResponse },
});

/** Saves the billing details printed on your next invoices */
export const putInvoicesBillingDetails = defineOperation({
  method: 'PUT',
  path: '/api/v1/invoices/billing-details',
  body: billingDetailsBody,
  responses: { 200: billingDetailsResponse },
});

/** Invoices of one of your orders */
export const getInvoicesOrderById = defineOperation({
  method: 'GET',
  path: '/api/v1/invoices/order/:id',
  params: orderIdParams,
  responses: { 200: orderInvoicesResponse },
});

/** One of your invoices as PDF */
export const getInvoicesPdf = defineOperation({
  method: 'GET',
  path: '/api/v1/invoices/:id/pdf',
  params: invoiceIdParams,
  binary: true,
  responses: { 200: pdfResponse },
});

/** Invoices of an order */
export const getAdminOrdersInvoices = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:id/invoices',
  params: orderIdParams,
  responses: { 200: orderInvoicesResponse },
});

/** An invoice as PDF */
export const getAdminInvoicesPdf = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/invoices/:id/pdf',
  params: invoiceIdParams,
  binary: true,
  responses: { 200: pdfResponse },
});
