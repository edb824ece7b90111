import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

// Mirrors migrations/05xx_*.sql (back office).
export const adminAuditLog = pgTable('admin_audit_log', {
  id: uuid('id').primaryKey().defaultRandom(),
  actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
  actorEmail: text('actor_email').notNull(),
  /** 'admin' (the owner) or 'staff' when they acted (migration 0872). */
  actorRole: text('actor_role'),
  action: text('action').notNull(),
  entity: text('entity').notNull(),
  entityId: text('entity_id'),
  before: jsonb('before'),
  after: jsonb('after'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The founder's internal note on an order; never part of any customer-facing answer. */
export const adminOrderNotes = pgTable('admin_order_notes', {
  orderId: uuid('order_id').primaryKey(),
  note: text('note').notNull(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The payout reference (bank transfer id, UPI ref…) of a cashback entry marked paid. */
export const cashbackPayouts = pgTable('cashback_payouts', {
  cashbackId: uuid('cashback_id').primaryKey(),
  reference: text('reference').notNull(),
  paidBy: uuid('paid_by').references(() => users.id, { onDelete: 'set null' }),
  paidAt: timestamp('paid_at', { withTimezone: true }).notNull().defaultNow(),
});
