import { bigint, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import { installments, orders } from './orders.ts';
import { INVOICE_SERIES, type InvoiceSnapshot } from '../../../contract/invoices.ts';

// Mirrors migrations/0740_invoices.sql and 0776_test_invoice_series.sql; the SQL files are the source of truth.

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
  series: text('series', { enum: INVOICE_SERIES })
    .notNull()
    .default('invoice'),
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
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
