import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { BriefAnswers } from '../../../domain/brief.ts';
import { orders } from './orders.ts';

// Mirrors migrations/0810_brief_terms_due_date.sql; the SQL file is the source of truth.

export const orderBriefs = pgTable('order_briefs', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  answers: jsonb('answers').$type<BriefAnswers>().notNull().default({}),
  submittedAt: timestamp('submitted_at', { withTimezone: true }),
  /** When someone on the agency side first opened the submitted brief (migration 1070). */
  agencyReadAt: timestamp('agency_read_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const orderTermsAcceptances = pgTable('order_terms_acceptances', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  termsVersion: text('terms_version').notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
  /** sha-256 hex of the order id, client address and user agent (decision 146); null without a request. */
  clientHash: text('client_hash'),
});

/** Mirrors migrations/0990_terms_versions.sql: the wording of each accepted version (docs/decisions/272-accepted-terms-readable.md). */
export const termsVersions = pgTable('terms_versions', {
  version: text('version').primaryKey(),
  /** The canonical JSON the version was computed from (src/domain/terms.ts `termsCanonicalText`). */
  wording: text('wording').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
