import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import { orders } from './orders.ts';
import { orderFiles } from './order-files.ts';
import { MESSAGE_SIDES } from './order-messages.ts';

// Mirrors migrations/0850_support_requests.sql (decision 170); the SQL file is the source of truth.

export const SUPPORT_CATEGORIES = ['bug', 'change', 'question'] as const;
export const SUPPORT_STATES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type SupportState = (typeof SUPPORT_STATES)[number];

const at = (name: string) => timestamp(name, { withTimezone: true });

export const supportRequests = pgTable(
  'support_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    category: text('category', { enum: SUPPORT_CATEGORIES }).notNull(),
    state: text('state', { enum: SUPPORT_STATES }).notNull().default('open'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    lastMessageAt: at('last_message_at').notNull().defaultNow(),
    lastCustomerMessageAt: at('last_customer_message_at').notNull().defaultNow(),
    /** Since when the customer waits for the agency; null when nobody waits. */
    waitingSince: at('waiting_since'),
    firstResponseAt: at('first_response_at'),
    /** When the support pass announced this wait as past the first-response target (decision 350). */
    overdueAnnouncedAt: at('overdue_announced_at'),
    resolvedAt: at('resolved_at'),
    closedAt: at('closed_at'),
  },
  (t) => [index('support_requests_by_order').on(t.orderId, t.createdAt), index('support_requests_queue').on(t.state, t.waitingSince)],
);

export const supportRequestFiles = pgTable(
  'support_request_files',
  {
    requestId: uuid('request_id')
      .notNull()
      .references(() => supportRequests.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => orderFiles.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.fileId] }), index('support_request_files_by_file').on(t.fileId)],
);

export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => supportRequests.id, { onDelete: 'cascade' }),
    sender: text('sender', { enum: MESSAGE_SIDES }).notNull(),
    senderUserId: uuid('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('support_messages_by_request').on(t.requestId, t.seq)],
);

export const supportMessageFiles = pgTable(
  'support_message_files',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => supportMessages.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => orderFiles.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] }), index('support_message_files_by_file').on(t.fileId)],
);

export const supportOffers = pgTable(
  'support_offers',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['plan_offer'] }).notNull(),
    supportUntil: at('support_until').notNull(),
    sentAt: at('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.kind] })],
);
