import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

// Mirrors migrations/0742_checkout_followups.sql; the SQL file is the source of truth.
export const checkoutFollowups = pgTable('checkout_followups', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  orderPublicId: text('order_public_id').notNull().unique(),
  couponCode: text('coupon_code'),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
});
