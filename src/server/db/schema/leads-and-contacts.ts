import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import { firstTouchColumns } from './funnel.ts';

// Mirrors migrations/0100_leads_and_contacts.sql.
export const leads = pgTable('leads', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind', { enum: ['email', 'phone'] }).notNull(),
  email: text('email'),
  phone: text('phone'),
  page: text('page'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  handledAt: timestamp('handled_at', { withTimezone: true }),
  ...firstTouchColumns(),
});

export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull().default(''),
  phoneCode: text('phone_code').notNull(),
  phoneNumber: text('phone_number').notNull(),
  address: text('address').notNull().default(''),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  handledAt: timestamp('handled_at', { withTimezone: true }),
  ...firstTouchColumns(),
});
