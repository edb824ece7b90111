import { sql } from 'drizzle-orm';

/**
 * The ids of a person's orders, as a subquery for `column in …` — how the features find their part
 * of a deleted account (`account.deleted`, decision 192) without importing the orders feature.
 */
export const orderIdsOf = (userId: string) => sql`(select o.id from orders o where o.user_id = ${userId})`;
