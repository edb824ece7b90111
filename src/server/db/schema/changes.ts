import { bigint, boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orders } from './orders.ts';
import { users } from './platform.ts';

// Mirrors migrations/0960_order_changes_and_addons.sql (decision 250); the SQL file is the source of truth.

const money = (name: string) => bigint(name, { mode: 'number' });

export const CHANGE_STATES = ['requested', 'quoted', 'accepted', 'declined', 'withdrawn', 'included'] as const;

export const addons = pgTable('addons', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** Minor units of the base currency (USD cents). */
  price: money('price').notNull(),
  extraDays: integer('extra_days').notNull().default(0),
  active: boolean('active').notNull().default(true),
  position: integer('position').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const orderChanges = pgTable('order_changes', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  fileIds: uuid('file_ids').array().notNull().default([]),
  state: text('state', { enum: CHANGE_STATES }).notNull().default('requested'),
  amount: money('amount'),
  currency: text('currency').notNull(),
  extraDays: integer('extra_days').notNull().default(0),
  note: text('note'),
  addonId: uuid('addon_id').references(() => addons.id, { onDelete: 'set null' }),
  createdBy: text('created_by', { enum: ['customer', 'agency'] }).notNull(),
  createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  declineReason: text('decline_reason'),
  quotedAt: timestamp('quoted_at', { withTimezone: true }),
  /** Bumped by every quote (migration 1070, docs/decisions/332-change-quote-version.md). */
  quoteVersion: integer('quote_version').notNull().default(0),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  acceptedWordingHash: text('accepted_wording_hash'),
  acceptedClientHash: text('accepted_client_hash'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
