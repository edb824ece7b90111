import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import type { OrderTax } from '../../../contract/pricing.ts';
import { coupons } from './coupons.ts';
import { firstTouchColumns } from './funnel.ts';
import { deliveryDateColumns } from './delivery-date.ts';

// Mirrors migrations/0300_orders.sql; the SQL file is the source of truth.
const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const money = (name: string) => bigint(name, { mode: 'number' });

export const orders = pgTable('orders', {
  id: uuid('id').primaryKey().defaultRandom(),
  publicId: text('public_id').notNull().unique(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  planId: text('plan_id').notNull(),
  currency: text('currency').notNull(),
  listPrice: money('list_price').notNull(),
  price: money('price').notNull(),
  discountPercent: integer('discount_percent').notNull().default(0),
  discount: money('discount').notNull().default(0),
  fee: money('fee').notNull(),
  total: money('total').notNull(),
  /** Migration 0920: the tax the order was quoted with (null: before GST, treated as none). */
  tax: jsonb('tax').$type<OrderTax>(),
  couponId: uuid('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
  couponCode: text('coupon_code'),
  referrerUserId: uuid('referrer_user_id').references(() => users.id, { onDelete: 'set null' }),
  state: text('state', { enum: ['awaiting_advance', 'in_progress', 'paid', 'delivered', 'cancelled'] })
    .notNull()
    .default('awaiting_advance'),
  deliveryUrl: text('delivery_url'),
  // Migration 0720: a use of the order's code held until then; the code taken back at payment.
  couponHoldUntil: timestamp('coupon_hold_until', { withTimezone: true }),
  couponWithdrawnAt: timestamp('coupon_withdrawn_at', { withTimezone: true }),
  createdAt,
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // Migration 0744: the customer's first-touch source (decision 097).
  ...firstTouchColumns(),
  // Migration 0810: set by the UI approval (decision 147).
  ...deliveryDateColumns(),
  // Migration 0960: days added to the delivery by paid changes (decision 251).
  changeDays: integer('change_days').notNull().default(0),
  // Migration 1020: cancelled by the owner (docs/decisions/321-cancel-and-refund.md).
  cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  cancelReason: text('cancel_reason'),
  cancelledBy: uuid('cancelled_by').references(() => users.id, { onDelete: 'set null' }),
});

export const installments = pgTable('installments', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['advance', 'remaining', 'change'] }).notNull(),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  state: text('state', { enum: ['due', 'pending', 'paid'] })
    .notNull()
    .default('due'),
  providerPaymentId: text('provider_payment_id'),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  createdAt,
  /** Migration 0960: the change this installment pays (kind 'change'); references order_changes (schema/changes.ts). */
  changeId: uuid('change_id').unique(),
});

export const paymentAttempts = pgTable('payment_attempts', {
  id: uuid('id').primaryKey().defaultRandom(),
  installmentId: uuid('installment_id')
    .notNull()
    .references(() => installments.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['razorpay', 'test'] }).notNull(),
  /** Taken with a test key (the built-in checkout or rzp_test_…): its invoice is in the TEST series (migration 0776). */
  testMode: boolean('test_mode').notNull().default(false),
  providerOrderId: text('provider_order_id').notNull().unique(),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  receipt: text('receipt').notNull(),
  state: text('state', { enum: ['created', 'paid', 'duplicate'] })
    .notNull()
    .default('created'),
  providerPaymentId: text('provider_payment_id'),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  /** A duplicate payment is 'needed' until the founder refunds it (migration 0680). */
  refundState: text('refund_state', { enum: ['needed', 'refunded'] }),
  refundReference: text('refund_reference'),
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
  refundedBy: uuid('refunded_by').references(() => users.id, { onDelete: 'set null' }),
  /** A change's checkout: the quote version it was opened at (migration 1070, docs/decisions/332-change-quote-version.md). */
  quoteVersion: integer('quote_version'),
  createdAt,
});

export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    providerOrderId: text('provider_order_id'),
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

export const orderStages = pgTable(
  'order_stages',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    stage: integer('stage').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
    note: text('note'),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt,
  },
  (t) => [primaryKey({ columns: [t.orderId, t.stage] })],
);

export const couponRedemptions = pgTable('coupon_redemptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  couponId: uuid('coupon_id')
    .notNull()
    .references(() => coupons.id, { onDelete: 'cascade' }),
  orderId: uuid('order_id')
    .notNull()
    .unique()
    .references(() => orders.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  discount: money('discount').notNull(),
  currency: text('currency').notNull(),
  createdAt,
});

export const cashback = pgTable('cashback', {
  id: uuid('id').primaryKey().defaultRandom(),
  referrerUserId: uuid('referrer_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  orderId: uuid('order_id')
    .notNull()
    .unique()
    .references(() => orders.id, { onDelete: 'cascade' }),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  state: text('state', { enum: ['pending', 'earned', 'paid'] })
    .notNull()
    .default('pending'),
  earnedAt: timestamp('earned_at', { withTimezone: true }),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  createdAt,
});
