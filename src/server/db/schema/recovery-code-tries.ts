import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

// Mirrors migrations/0871_recovery_code_tries_a.sql (decision 190).
export const recoveryCodeTries = pgTable(
  'recovery_code_tries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recovery_code_tries_user_idx').on(t.userId, t.createdAt), index('recovery_code_tries_ip_idx').on(t.ip, t.createdAt)],
);
