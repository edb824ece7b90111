import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { firstTouchColumns } from './funnel.ts';

// Mirrors migrations/0001_platform.sql; the SQL file is the source of truth for the database.
const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name'),
  phoneCode: text('phone_code'),
  phoneNumber: text('phone_number'),
  address: text('address'),
  role: text('role', { enum: ['customer', 'staff', 'admin'] })
    .notNull()
    .default('customer'),
  ...timestamps,
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // Migration 0744: where the visitor first came from (decision 097).
  ...firstTouchColumns(),
  // Migration 0870: the account was deleted and its row anonymised (decision 192).
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  userAgent: text('user_agent'),
  ...timestamps,
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  // Migration 0870: the last passkey (or recovery code) confirmation — the step-up, decision 190.
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  city: text('city'),
});

export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  toAddress: text('to_address').notNull(),
  template: text('template').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  state: text('state', { enum: ['pending', 'sent', 'failed'] })
    .notNull()
    .default('pending'),
  transport: text('transport'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  lastError: text('last_error'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  /** Added by migration 0740 (invoice PDFs on receipts): base64 files. */
  attachments: jsonb('attachments').$type<{ filename: string; contentType: string; base64: string }[]>(),
  /** Added by migration 0880: documents the worker renders as it sends (mail/mailer.ts AttachmentRef). */
  renders: jsonb('renders').$type<{ kind: 'invoice' | 'care-report'; id: string }[]>(),
  ...timestamps,
});
