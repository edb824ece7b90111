import { sql } from 'drizzle-orm';
import { orders } from '../../db/schema/orders.ts';

// When a draft (an advance checkout opened and not paid) needs no follow-up, written once for the
// job that mails and for the back-office list that shows it (decisions 096 and 128). SQL over the
// outer `orders` row, the draft.

/** The customer has an order created at or after this draft that went past the advance: they paid since. */
export const paidSinceWhere = sql`p.user_id = ${orders.userId} and p.state <> 'awaiting_advance' and p.created_at >= ${orders.createdAt}`;

/** The customer opened another checkout after this one: only the latest draft is followed up. */
export const newerDraftWhere = sql`n.user_id = ${orders.userId} and n.state = 'awaiting_advance' and n.created_at > ${orders.createdAt}`;

/** The public id of the first order paid since the draft, or null. */
export const paidSinceOrderId = sql<
  string | null
>`(select p.public_id from orders p where ${paidSinceWhere} order by p.created_at limit 1)`;

export const hasNewerDraft = sql<boolean>`exists (select 1 from orders n where ${newerDraftWhere})`;
