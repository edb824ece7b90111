import { bigserial, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import { orders } from './orders.ts';

// Mirrors migrations/0741_payment_reminders.sql and 0745; the SQL files are the source of truth.
export const paymentReminders = pgTable('payment_reminders', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  /** 1, then 2 after stage 13 was undone and completed again (migration 0745). */
  round: integer('round').notNull().default(1),
  step: integer('step').notNull(),
  kind: text('kind', { enum: ['due', 'reminder', 'founder'] }).notNull(),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  state: text('state', { enum: ['pending', 'sent', 'cancelled', 'skipped'] })
    .notNull()
    .default('pending'),
  reason: text('reason'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const reminderPauses = pgTable('reminder_pauses', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  pausedBy: uuid('paused_by').references(() => users.id, {
    onDelete: 'set null',
  }),
  pausedAt: timestamp('paused_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every pause and resume, written by a trigger on reminder_pauses (migration 0745). */
export const reminderPauseHistory = pgTable('reminder_pause_history', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  pausedAt: timestamp('paused_at', { withTimezone: true }).notNull(),
  pausedBy: uuid('paused_by').references(() => users.id, { onDelete: 'set null' }),
  resumedAt: timestamp('resumed_at', { withTimezone: true }),
});
