import { bigint, boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

// Mirrors migrations/0400_chat.sql; the SQL file is the source of truth.
export const chatConversations = pgTable('chat_conversations', {
  id: text('id').primaryKey(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  state: text('state', { enum: ['waiting', 'open', 'closed'] })
    .notNull()
    .default('waiting'),
  contactEmail: text('contact_email'),
  adminUnread: integer('admin_unread').notNull().default(0),
  visitorUnread: integer('visitor_unread').notNull().default(0),
  lastMessage: text('last_message'),
  lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
  ownerNotifiedAt: timestamp('founder_notified_at', { withTimezone: true }),
  closedAt: timestamp('closed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const chatMessages = pgTable('chat_messages', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  id: uuid('id').notNull().unique().defaultRandom(),
  conversationId: text('conversation_id')
    .notNull()
    .references(() => chatConversations.id, { onDelete: 'cascade' }),
  sender: text('sender', { enum: ['user', 'admin'] }).notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const assistantThreads = pgTable('assistant_threads', {
  id: text('id').primaryKey(),
  turns: integer('turns').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const assistantMessages = pgTable('assistant_messages', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  threadId: text('thread_id')
    .notNull()
    .references(() => assistantThreads.id, { onDelete: 'cascade' }),
  role: text('role', { enum: ['user', 'assistant'] }).notNull(),
  content: text('content').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const assistantEntries = pgTable('assistant_entries', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The one definition of a chat waiting for the founder, for the console's list and the back
 * office's "open chats" count (decision 126): not closed, and somebody wrote in it. A chat opened
 * on the team tab with nothing said is nobody waiting. SQL over `chat_conversations c`.
 */
export const LISTED_CHAT_SQL = "c.state <> 'closed' and c.last_message_at is not null";
