import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Mirrors migrations/0002_coupons.sql: one row per setting the owner changes at run time (the featured promotion).
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
