import { bigint, boolean, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orders } from './orders.ts';
import { PLAN_STATES } from '../../../contract/maintenance.ts';

// Mirrors migrations/0860_maintenance_plans.sql (decision 175); the SQL file is
// the source of truth.

const money = (name: string) => bigint(name, { mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true });

export const maintenanceProviderPlans = pgTable(
  'maintenance_provider_plans',
  {
    provider: text('provider', { enum: ['razorpay', 'test'] }).notNull(),
    currency: text('currency').notNull(),
    amount: money('amount').notNull(),
    providerPlanId: text('provider_plan_id').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.currency, t.amount] })],
);

export const maintenanceSubscriptions = pgTable('maintenance_subscriptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['razorpay', 'test'] }).notNull(),
  testMode: boolean('test_mode').notNull().default(false),
  providerSubscriptionId: text('provider_subscription_id').notNull().unique(),
  providerPlanId: text('provider_plan_id').notNull(),
  currency: text('currency').notNull(),
  amount: money('amount').notNull(),
  state: text('state', { enum: PLAN_STATES }).notNull().default('created'),
  stateAt: at('state_at'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  // Mirrors migrations/0930_maintenance_claims.sql: a cancel asked of the provider, not yet answered.
  cancelRequestedAt: at('cancel_requested_at'),
  // Mirrors migrations/0932_maintenance_starts_at.sql: the first charge's date when it waits for the end of the included support.
  startsAt: at('starts_at'),
  // Mirrors migrations/0980_maintenance_terms.sql: the maintenance terms accepted when subscribing.
  termsVersion: text('terms_version'),
  termsAcceptedAt: at('terms_accepted_at'),
  termsClientHash: text('terms_client_hash'),
  paidUntil: at('paid_until'),
  createdAt: at('created_at').notNull().defaultNow(),
  updatedAt: at('updated_at').notNull().defaultNow(),
  // Mirrors migrations/1050_maintenance_plan_gst.sql (docs/decisions/322-maintenance-plan-gst.md):
  // the price before tax (amount: the monthly total charged; null: opened before, at its amount flat),
  // and a price change waiting for the cycle's end.
  price: money('price'),
  pendingPlanId: text('pending_plan_id'),
  pendingAmount: money('pending_amount'),
  pendingFrom: at('pending_from'),
  repricedAt: at('repriced_at'),
  repriceRequestedAt: at('reprice_requested_at'),
});

export const maintenanceCharges = pgTable('maintenance_charges', {
  id: uuid('id').primaryKey().defaultRandom(),
  subscriptionId: uuid('subscription_id')
    .notNull()
    .references(() => maintenanceSubscriptions.id, { onDelete: 'cascade' }),
  providerPaymentId: text('provider_payment_id').notNull().unique(),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  periodStart: at('period_start').notNull(),
  periodEnd: at('period_end').notNull(),
  chargedAt: at('charged_at').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** migrations/0930_maintenance_claims.sql: an order whose subscribe is at the provider right now. */
export const maintenanceSubscribeClaims = pgTable('maintenance_subscribe_claims', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  claimedAt: at('claimed_at').notNull().defaultNow(),
});
