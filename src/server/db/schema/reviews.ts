import {
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './platform.ts';
import { orders } from './orders.ts';
import { orderFiles } from './order-files.ts';
import { COMMENT_AUTHORS, REVIEW_DECISIONS, REVIEW_KINDS, REVIEW_STATES } from '../../../contract/reviews.ts';

// Mirrors migrations/0820_order_reviews.sql (decision 150); the SQL file is the
// source of truth.

export const orderReviews = pgTable(
  'order_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REVIEW_KINDS }).notNull(),
    round: integer('round').notNull(),
    title: text('title').notNull(),
    note: text('note'),
    previewUrl: text('preview_url'),
    state: text('state', { enum: REVIEW_STATES }).notNull().default('open'),
    openedByUserId: uuid('opened_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    unique().on(t.orderId, t.kind, t.round),
    uniqueIndex('order_reviews_one_open')
      .on(t.orderId, t.kind)
      .where(sql`state = 'open'`),
  ],
);

export const orderReviewFiles = pgTable(
  'order_review_files',
  {
    reviewId: uuid('review_id')
      .notNull()
      .references(() => orderReviews.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => orderFiles.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.fileId] }), index('order_review_files_by_file').on(t.fileId)],
);

export const orderReviewComments = pgTable(
  'order_review_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reviewId: uuid('review_id')
      .notNull()
      .references(() => orderReviews.id, { onDelete: 'cascade' }),
    /** Null for a pin on the live site (decision 241). */
    fileId: uuid('file_id'),
    x: doublePrecision('x').notNull(),
    y: doublePrecision('y').notNull(),
    text: text('text').notNull(),
    author: text('author', { enum: COMMENT_AUTHORS }).notNull(),
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    replyTo: uuid('reply_to').references((): AnyPgColumn => orderReviewComments.id, { onDelete: 'cascade' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedByUserId: uuid('resolved_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // A pin on the live site (migrations/0950_site_review.sql, decision 241).
    pageUrl: text('page_url'),
    selector: text('selector'),
    viewportWidth: integer('viewport_width'),
    viewportHeight: integer('viewport_height'),
    viewportDpr: doublePrecision('viewport_dpr'),
    browser: text('browser'),
    screenshotFileId: uuid('screenshot_file_id').references(() => orderFiles.id, { onDelete: 'set null' }),
  },
  (t) => [
    foreignKey({ columns: [t.reviewId, t.fileId], foreignColumns: [orderReviewFiles.reviewId, orderReviewFiles.fileId] }).onDelete(
      'cascade',
    ),
    index('order_review_comments_by_review').on(t.reviewId, t.createdAt),
  ],
);

/** What a decision fixes about the files it was made on. */
export interface DecidedFile {
  id: string;
  name: string;
  sha256: string;
}

export const orderReviewDecisions = pgTable('order_review_decisions', {
  reviewId: uuid('review_id')
    .primaryKey()
    .references(() => orderReviews.id, { onDelete: 'cascade' }),
  decision: text('decision', { enum: REVIEW_DECISIONS }).notNull(),
  comment: text('comment'),
  decidedByUserId: uuid('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
  files: jsonb('files').$type<DecidedFile[]>().notNull(),
});

// Mirrors migrations/0950_site_review.sql (decision 240): the origins of an order's preview links
// and the site tokens (hashes only).
export const orderReviewOrigins = pgTable(
  'order_review_origins',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.origin] }), index('order_review_origins_by_origin').on(t.origin)],
);

export const orderReviewSiteTokens = pgTable(
  'order_review_site_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reviewId: uuid('review_id')
      .notNull()
      .references(() => orderReviews.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    author: text('author', { enum: COMMENT_AUTHORS }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('order_review_site_tokens_by_review').on(t.reviewId)],
);
