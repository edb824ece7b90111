import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import { orders } from './orders.ts';

// Mirrors migrations/0800_order_files.sql; the SQL file is the source of truth.

export const orderFiles = pgTable(
  'order_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    uploaderUserId: uuid('uploader_user_id').references(() => users.id, { onDelete: 'set null' }),
    uploadedBy: text('uploaded_by', { enum: ['customer', 'agency'] }).notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_files_by_order').on(t.orderId, t.createdAt)],
);

export const orderFileQuotaLocks = pgTable('order_file_quota_locks', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
});

/** Mirrors migrations/0902_order_file_reads.sql: when the agency last opened the order's files. */
export const orderFileReads = pgTable('order_file_reads', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  agencyReadAt: timestamp('agency_read_at', { withTimezone: true }).notNull(),
});

/** migrations/0931_stored_object_sweep.sql: keys the sweep found with no row, and since when. */
export const storedObjectSweepMarks = pgTable('stored_object_sweep_marks', {
  storageKey: text('storage_key').primaryKey(),
  firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
});
