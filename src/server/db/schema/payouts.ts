import { bigint, date, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Mirrors migrations/1040_razorpay_settlements.sql (docs/decisions/323-razorpay-settlements.md); the
// SQL file is the source of truth. Written by features/payouts only, Razorpay's figures in paise.

const money = (name: string) => bigint(name, { mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true });

export const razorpaySettlements = pgTable('razorpay_settlements', {
  id: text('id').primaryKey(),
  amount: money('amount').notNull(),
  fees: money('fees').notNull().default(0),
  tax: money('tax').notNull().default(0),
  utr: text('utr'),
  status: text('status').notNull(),
  createdAt: at('created_at').notNull(),
  readAt: at('read_at').notNull().defaultNow(),
});

export const razorpaySettlementItems = pgTable('razorpay_settlement_items', {
  entityId: text('entity_id').primaryKey(),
  type: text('type').notNull(),
  settlementId: text('settlement_id').notNull(),
  settlementUtr: text('settlement_utr'),
  amount: money('amount').notNull(),
  fee: money('fee').notNull().default(0),
  tax: money('tax').notNull().default(0),
  debit: money('debit').notNull().default(0),
  credit: money('credit').notNull().default(0),
  currency: text('currency').notNull().default('INR'),
  settledAt: at('settled_at').notNull(),
  providerOrderId: text('provider_order_id'),
  paymentId: text('payment_id'),
  readAt: at('read_at').notNull().defaultNow(),
});

export const razorpayReconReads = pgTable('razorpay_recon_reads', {
  month: text('month').primaryKey(),
  readAt: at('read_at').notNull(),
  items: integer('items').notNull(),
});

export const payoutSyncDays = pgTable('payout_sync_days', {
  day: date('day').primaryKey(),
  createdAt: at('created_at').notNull().defaultNow(),
});
