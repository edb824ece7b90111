import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { RATING_KINDS } from '../../../contract/ratings.ts';
import { users } from './platform.ts';
import { orders } from './orders.ts';
import { supportRequests } from './support.ts';

// Mirrors migrations/0901_ratings.sql (docs/decisions/214-ratings.md); the SQL file is the source of truth.

export const ratings = pgTable(
  'ratings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: RATING_KINDS }).notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    supportRequestId: uuid('support_request_id').references(() => supportRequests.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    score: integer('score').notNull(),
    comment: text('comment'),
    mayQuote: boolean('may_quote').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ratings_order_once')
      .on(t.orderId)
      .where(sql`kind = 'order'`),
    uniqueIndex('ratings_request_once')
      .on(t.supportRequestId)
      .where(sql`kind = 'support'`),
    index('ratings_created_idx').on(t.createdAt),
  ],
);
