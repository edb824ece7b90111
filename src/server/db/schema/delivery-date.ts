import { date, timestamp } from 'drizzle-orm/pg-core';

// Migration 0810 (decision 147): the columns the UI approval sets on an order,
// spread into the `orders` table like the first-touch columns. A file of its own so the tables of
// the order workspace (workspace.ts, which references orders) and orders.ts import no circle.
export const deliveryDateColumns = () => ({
  uiApprovedAt: timestamp('ui_approved_at', { withTimezone: true }),
  /** A UTC calendar date, 'YYYY-MM-DD'. */
  dueDate: date('due_date', { mode: 'string' }),
});
