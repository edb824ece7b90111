import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

// Mirrors migrations/0873_c_privacy_self_service.sql (decision 193); the SQL file is the
// source of truth.

/** One row per "download all my data": the per-user limit is counted here, across instances. */
export const accountExports = pgTable('account_exports', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
