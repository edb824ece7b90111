import { bigint, pgTable, uuid } from 'drizzle-orm/pg-core';

// Mirrors migrations/1010_order_reads.sql and 1090_order_reads_version_only.sql
// (docs/decisions/317-order-reads-table.md, 341-one-rule-per-derived-value.md); the SQL files are the
// source of truth. Only the database writes these rows (its deferred triggers): the code reads them.

export const orderReads = pgTable('order_reads', {
  // The order's id; no foreign key (the migration says why), the row goes with its order by trigger.
  orderId: uuid('order_id').primaryKey(),
  // Moves on every commit that changes what a signed-in read shows of the order: what kept answers
  // are checked against (lib/versioned-answers.ts).
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
