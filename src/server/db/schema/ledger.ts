import { bigint, integer, pgTable, text, timestamp, uuid, boolean } from 'drizzle-orm/pg-core';
import { orders } from './orders.ts';
import { invoices } from './invoices.ts';
import { users } from './platform.ts';

// Mirrors migrations/1020_order_ledger.sql (docs/decisions/320-order-ledger.md); the SQL file is the
// source of truth. Lines are written by features/ledger only, and never changed.

const money = (name: string) => bigint(name, { mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true });

export { LEDGER_KINDS } from '../../../contract/statement.ts';
import { LEDGER_KINDS } from '../../../contract/statement.ts';

export const orderLedger = pgTable('order_ledger', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  at: at('at').notNull(),
  kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
  description: text('description').notNull(),
  invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
  documentNumber: text('document_number'),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  inrAmount: money('inr_amount'),
  taxKind: text('tax_kind', { enum: ['CGST', 'SGST', 'IGST'] }),
  source: text('source').notNull(),
  lineNo: integer('line_no').notNull(),
  providerRef: text('provider_ref'),
  testMode: boolean('test_mode').notNull().default(false),
  createdAt: at('created_at').notNull().defaultNow(),
});

export const REFUND_STATES = ['pending', 'processed', 'failed'] as const;
export const REFUND_ORIGINS = ['cancel', 'duplicate', 'dashboard', 'manual'] as const;

export const paymentRefunds = pgTable('payment_refunds', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['razorpay', 'test', 'manual'] }).notNull(),
  providerPaymentId: text('provider_payment_id').notNull(),
  providerRefundId: text('provider_refund_id').unique(),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  status: text('status', { enum: REFUND_STATES }).notNull().default('pending'),
  origin: text('origin', { enum: REFUND_ORIGINS }).notNull(),
  reason: text('reason'),
  testMode: boolean('test_mode').notNull().default(false),
  documentId: uuid('document_id').references(() => invoices.id, { onDelete: 'set null' }),
  requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
  failureReason: text('failure_reason'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: at('created_at').notNull().defaultNow(),
  processedAt: at('processed_at'),
  failedAt: at('failed_at'),
});
