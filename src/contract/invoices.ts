import { z } from 'zod';
import { safeString } from './text-policy.ts';

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

export const billingDetailsBody = z.object({
  billingName: printable(120, 'The billing name').optional().default(''),
  billingAddress: printable(500, 'The billing address', { multiLine: true }).optional().default(''),
  taxId: taxIdSchema.optional().default(''),
});
export type BillingDetailsBody = z.input<typeof billingDetailsBody>;

export const billingDetails = z.object({
  billingName: z.string(),
  billingAddress: z.string(),
  taxId: z.string(),
});
export type BillingDetails = z.infer<typeof billingDetails>;
export const billingDetailsResponse = z.object({
  success: z.literal(true),
  billing: billingDetails,
});

/** 'test_invoice': a payment taken in test mode, numbered apart from the tax invoices (decision 120). */
export const INVOICE_SERIES = ['invoice', 'credit_note', 'test_invoice'] as const;
export type InvoiceSeries = (typeof INVOICE_SERIES)[number];

export const invoiceSummary = z.object({
  id: z.string(),
  number: z.string(),
  series: z.enum(INVOICE_SERIES),
  kind: z.enum(['advance', 'remaining']).nullable(),
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
  installment: { kind: 'advance' | 'remaining' | 'maintenance'; label: string; amount: number };
  /** A maintenance-plan charge: the month it pays for; absent on order invoices. */
  charge?: { periodStart: string; periodEnd: string };
  paidBefore: number;
  remainingAfter: number;
  paymentId: string;
  paidAt: string;
  /** The IANA zone the dates are printed in: INVOICE_TIME_ZONE at issue, the zone of the financial year. Older snapshots lack it. */
  timeZone?: string;
}
