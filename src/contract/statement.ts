import { z } from 'zod';
import { defineOperation } from './operation.ts';
import { pdfResponse } from './invoices.ts';

// The order's statement of account (docs/decisions/320-order-ledger.md): every line of its ledger
// and the totals every screen shows. Amounts are signed minor units of `currency`: charges and tax
// positive, discounts, payments and credit notes negative, refunds positive.

export const LEDGER_KINDS = ['charge', 'discount', 'tax', 'payment', 'refund', 'credit_note'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** How a line's kind is named on the statement, on screen and in the PDF. */
export const LEDGER_KIND_LABEL: Record<LedgerKind, string> = {
  charge: 'Charge',
  discount: 'Discount',
  tax: 'Tax',
  payment: 'Payment',
  refund: 'Refund',
  credit_note: 'Credit',
};

export const statementParams = z.object({ orderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an order id.') });

export const statementLine = z.object({
  at: z.string(),
  kind: z.enum(LEDGER_KINDS),
  description: z.string(),
  documentNumber: z.string().nullable(),
  amount: z.number().int(),
});
export type StatementLine = z.infer<typeof statementLine>;

export const statementTotals = z.object({
  /** Charges, discounts and tax: what the order costs, tax included. */
  charged: z.number().int(),
  tax: z.number().int(),
  paid: z.number().int(),
  refunded: z.number().int(),
  /** Credit notes and the part of a cancelled order that is no longer due (positive). */
  credited: z.number().int(),
  /** charged − paid + refunded − credited; negative when money is owed to the customer. */
  balanceDue: z.number().int(),
});
export type StatementTotals = z.infer<typeof statementTotals>;

export const statementResponse = z.object({
  orderId: z.string(),
  currency: z.string(),
  symbol: z.string(),
  minorDigits: z.number().int(),
  /** The order's state ('cancelled' once cancelled). */
  state: z.string(),
  lines: z.array(statementLine),
  totals: statementTotals,
});
export type StatementResponse = z.infer<typeof statementResponse>;

/** The statement of account of one of your orders */
export const getOrdersStatement = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/statement',
  params: statementParams,
  responses: { 200: statementResponse },
});

/** The statement of account of one of your orders, as a PDF */
export const getOrdersStatementPdf = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/statement.pdf',
  params: statementParams,
  binary: true,
  responses: { 200: pdfResponse },
});

/** An order's statement of account (owner and staff) */
export const getAdminOrdersStatement = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/statement',
  params: statementParams,
  responses: { 200: statementResponse },
});

/** An order's statement of account as a PDF (owner and staff) */
export const getAdminOrdersStatementPdf = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/statement.pdf',
  params: statementParams,
  binary: true,
  responses: { 200: pdfResponse },
});
