import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

// Mirrors migrations/0002_coupons.sql.
export const coupons = pgTable('coupons', {
  id: uuid('id').primaryKey().defaultRandom(),
  code: text('code').notNull().unique(),
  kind: text('kind', { enum: ['promo', 'referral'] }).notNull(),
  percent: integer('percent').notNull(),
  description: text('description'),
  validFrom: timestamp('valid_from', { withTimezone: true }),
  validUntil: timestamp('valid_until', { withTimezone: true }),
  active: boolean('active').notNull().default(true),
  maxUses: integer('max_uses'),
  maxUsesPerCustomer: integer('max_uses_per_customer').default(1),
  ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
