import { bigint, index, integer, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './platform.ts';
import { orders } from './orders.ts';
import { orderFiles } from './order-files.ts';

// Mirrors migrations/0830_order_messages_and_notices.sql (decision 155; notice kinds as of 0970); the SQL
// file is the source of truth.

export const MESSAGE_SIDES = ['customer', 'agency'] as const;
export type MessageSide = (typeof MESSAGE_SIDES)[number];
export const NOTICE_KINDS = [
  'message',
  'review_opened',
  'review_decided',
  'review_comment',
  'support_reply',
  'stage_completed',
  'change_requested',
  'change_quoted',
  'brief_submitted',
  'customer_file',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const orderMessages = pgTable(
  'order_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    sender: text('sender', { enum: MESSAGE_SIDES }).notNull(),
    senderUserId: uuid('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // by_order_sender: the unread count's index (migrations/1090_order_reads_version_only.sql).
  (t) => [index('order_messages_by_order').on(t.orderId, t.seq), index('order_messages_by_order_sender').on(t.orderId, t.sender, t.seq)],
);

export const orderMessageFiles = pgTable(
  'order_message_files',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => orderMessages.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => orderFiles.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] }), index('order_message_files_by_file').on(t.fileId)],
);

export const orderMessageReads = pgTable(
  'order_message_reads',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    side: text('side', { enum: MESSAGE_SIDES }).notNull(),
    lastReadSeq: bigint('last_read_seq', { mode: 'number' }).notNull().default(0),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.side] })],
);

export const notices = pgTable(
  'notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    recipient: text('recipient', { enum: MESSAGE_SIDES }).notNull(),
    kind: text('kind', { enum: NOTICE_KINDS }).notNull(),
    refId: uuid('ref_id').notNull(),
    summary: text('summary').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    unique().on(t.kind, t.refId, t.recipient),
    index('notices_waiting')
      .on(t.orderId, t.recipient, t.createdAt)
      .where(sql`read_at is null and sent_at is null`),
    index('notices_waiting_kinds')
      .on(t.orderId, t.recipient, t.kind)
      .where(sql`read_at is null and sent_at is null`),
    index('notices_waiting_since')
      .on(t.createdAt)
      .where(sql`read_at is null and sent_at is null`),
  ],
);
