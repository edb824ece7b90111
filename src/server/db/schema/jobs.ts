import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Mirrors migrations/0880_durable_reactions.sql; the SQL file is the source of truth.
export const jobs = pgTable('jobs', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
  state: text('state', { enum: ['pending', 'done', 'failed'] })
    .notNull()
    .default('pending'),
  attempts: integer('attempts').notNull().default(0),
  runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
  lastError: text('last_error'),
  doneAt: timestamp('done_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// Mirrors migrations/1080_pass_row_failures.sql: the rows the scheduled passes park (lib/pass-rows.ts).
export const passRowFailures = pgTable('pass_row_failures', {
  id: uuid('id').primaryKey().defaultRandom(),
  pass: text('pass').notNull(),
  rowKey: text('row_key').notNull(),
  attempts: integer('attempts').notNull().default(0),
  state: text('state', { enum: ['retrying', 'failed'] })
    .notNull()
    .default('retrying'),
  retryAt: timestamp('retry_at', { withTimezone: true }).notNull(),
  lastError: text('last_error'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
