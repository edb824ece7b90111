import { bigserial, date, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Mirrors migrations/0743_funnel.sql and 0744_first_touch.sql; the SQL files are the source of truth.
export const funnelSalts = pgTable('funnel_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});

export const pageViews = pgTable('page_views', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  day: date('day', { mode: 'string' }).notNull(),
  visitor: text('visitor').notNull(),
  path: text('path').notNull(),
  utmSource: text('utm_source'),
  utmMedium: text('utm_medium'),
  utmCampaign: text('utm_campaign'),
  referrerHost: text('referrer_host'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The first-touch source columns of leads, contact messages, users and orders (migration 0744).
 * Spread into those tables; each call makes fresh column builders.
 */
export const firstTouchColumns = () => ({
  firstUtmSource: text('first_utm_source'),
  firstUtmMedium: text('first_utm_medium'),
  firstUtmCampaign: text('first_utm_campaign'),
  firstReferrerHost: text('first_referrer_host'),
});
