import { bigint, integer, json, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Mirrors migrations/1010_order_reads.sql (docs/decisions/317-order-reads-table.md); the SQL file is
// the source of truth. Only the database writes these rows (its deferred triggers): the code reads them.

export const orderReads = pgTable('order_reads', {
  // The order's id; no foreign key (the migration says why), the row goes with its order by trigger.
  orderId: uuid('order_id').primaryKey(),
  stages: json('stages').notNull().default([]),
  stageCount: integer('stage_count').notNull().default(0),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  waitingCustomer: text('waiting_customer').array().notNull().default([]),
  waitingAgency: text('waiting_agency').array().notNull().default([]),
  unreadCustomer: integer('unread_customer').notNull().default(0),
  unreadAgency: integer('unread_agency').notNull().default(0),
  plan: json('plan'),
  coveredUntil: timestamp('covered_until', { withTimezone: true }),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
