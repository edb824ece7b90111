import { bigint, boolean, date, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import { orders } from './orders.ts';

// Mirrors migrations/1060_site_care.sql (decisions 325–327); the SQL file is the source of truth.

const at = (name: string) => timestamp(name, { withTimezone: true });

export const SITE_STATES = ['unknown', 'up', 'down'] as const;
export const CHECK_CAUSES = ['status', 'timeout', 'text', 'certificate', 'connection', 'address'] as const;
export type CheckCause = (typeof CHECK_CAUSES)[number];

export const siteCareOrders = pgTable('site_care_orders', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  keepWatching: boolean('keep_watching').notNull().default(false),
  customerMails: boolean('customer_mails').notNull().default(true),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const watchedSites = pgTable('watched_sites', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  url: text('url'),
  isDeliveryLink: boolean('is_delivery_link').notNull().default(false),
  expectText: text('expect_text'),
  addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: at('created_at').notNull().defaultNow(),
  watching: boolean('watching').notNull().default(true),
  stoppedNote: text('stopped_note'),
  nextCheckAt: at('next_check_at').notNull(),
  nextDailyAt: at('next_daily_at').notNull().defaultNow(),
  state: text('state', { enum: SITE_STATES }).notNull().default('unknown'),
  failStreak: integer('fail_streak').notNull().default(0),
  lastCheckedAt: at('last_checked_at'),
  lastStatus: integer('last_status'),
  lastError: text('last_error'),
  certValidTo: at('cert_valid_to'),
  certWarnedDays: integer('cert_warned_days'),
  domainName: text('domain_name'),
  domainExpiresAt: at('domain_expires_at'),
  domainWarnedDays: integer('domain_warned_days'),
  domainRenewedBy: text('domain_renewed_by', { enum: ['agency', 'customer'] })
    .notNull()
    .default('agency'),
  alertState: text('alert_state', { enum: ['up', 'down'] })
    .notNull()
    .default('up'),
  alertMailedAt: at('alert_mailed_at'),
});

export const siteCheckResults = pgTable('site_check_results', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: uuid('site_id')
    .notNull()
    .references(() => watchedSites.id, { onDelete: 'cascade' }),
  scheduledAt: at('scheduled_at').notNull(),
  checkedAt: at('checked_at').notNull(),
  ok: boolean('ok').notNull(),
  status: integer('status').notNull(),
  ttfbMs: integer('ttfb_ms'),
  totalMs: integer('total_ms').notNull(),
  cause: text('cause', { enum: CHECK_CAUSES }),
});

export const siteCheckDays = pgTable(
  'site_check_days',
  {
    siteId: uuid('site_id')
      .notNull()
      .references(() => watchedSites.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    checks: integer('checks').notNull().default(0),
    failures: integer('failures').notNull().default(0),
    p50Ms: integer('p50_ms'),
    p95Ms: integer('p95_ms'),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.day] })],
);

export const siteIncidents = pgTable('site_incidents', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id')
    .notNull()
    .references(() => watchedSites.id, { onDelete: 'cascade' }),
  cause: text('cause', { enum: CHECK_CAUSES }).notNull(),
  startedAt: at('started_at').notNull(),
  endedAt: at('ended_at'),
});

export const careReports = pgTable(
  'care_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    partial: boolean('partial').notNull().default(false),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [unique().on(t.orderId, t.month, t.partial)],
);

export const siteCareMarks = pgTable('site_care_marks', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
