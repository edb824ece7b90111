import { type AnyPgColumn, bigint, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import { installments, orders } from './orders.ts';
import { DOCUMENT_KINDS, INVOICE_SERIES, type InvoiceSnapshot } from '../../../contract/invoices.ts';

// Mirrors migrations/0740_invoices.sql, 0776_test_invoice_series.sql and 0920_gst_documents.sql; the SQL files are the source of truth.

export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    series: text('series', { enum: INVOICE_SERIES }).notNull(),
    financialYear: text('financial_year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.financialYear] })],
);

export const invoices = pgTable('invoices', {
  id: uuid('id').primaryKey().defaultRandom(),
  series: text('series', { enum: INVOICE_SERIES }).notNull().default('invoice'),
  number: text('number').notNull().unique(),
  financialYear: text('financial_year').notNull(),
  sequence: integer('sequence').notNull(),
  orderId: uuid('order_id').references(() => orders.id, {
    onDelete: 'set null',
  }),
  installmentId: uuid('installment_id').references(() => installments.id, {
    onDelete: 'set null',
  }),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  installmentKind: text('installment_kind', { enum: ['advance', 'remaining'] }),
  providerPaymentId: text('provider_payment_id'),
  creditNoteFor: uuid('credit_note_for'),
  /** Migration 0860: the maintenance-plan charge this invoice is for (installmentId null then). */
  maintenanceChargeId: uuid('maintenance_charge_id'),
  /** Migration 0920: what the document is (a test-mode one is numbered in the TEST series). */
  docKind: text('doc_kind', { enum: DOCUMENT_KINDS }).notNull().default('invoice'),
  taxRegime: text('tax_regime', { enum: ['none', 'gst'] })
    .notNull()
    .default('none'),
  supplyType: text('supply_type', { enum: ['intra', 'inter', 'export', 'none'] })
    .notNull()
    .default('none'),
  placeOfSupplyCode: text('place_of_supply_code'),
  buyerGstin: text('buyer_gstin'),
  /** Minor units of `currency`, like `amount` (the amount paid or refunded, tax included). */
  taxableValue: bigint('taxable_value', { mode: 'number' }),
  taxAmount: bigint('tax_amount', { mode: 'number' }).notNull().default(0),
  /** Paise: the INR value of a document in another currency, at the rate printed on it. */
  inrValue: bigint('inr_value', { mode: 'number' }),
  /** The receipt voucher a tax invoice adjusts or a refund voucher refunds. */
  adjustsInvoiceId: uuid('adjusts_invoice_id').references((): AnyPgColumn => invoices.id),
  testMode: boolean('test_mode').notNull().default(false),
  cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  currency: text('currency').notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  snapshot: jsonb('snapshot').$type<InvoiceSnapshot>().notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const billingDetails = pgTable('billing_details', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  billingName: text('billing_name'),
  billingAddress: text('billing_address'),
  taxId: text('tax_id'),
  /** Migration 0920: the place of supply (ISO country, GST state code, the buyer's GSTIN). */
  country: text('country'),
  stateCode: text('state_code'),
  gstin: text('gstin'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
