import { and, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { orders } from '../../db/schema/orders.ts';
import { checkoutFollowups } from '../../db/schema/checkout-followups.ts';

/**
 * A deleted person's open checkouts (drafts) go at once (decision 192), like the retention job's
 * (cleanUpDrafts) — except one opened at the provider within the last hour: the person may be paying
 * it right now and its webhook must still find it. It holds nothing personal (the account is
 * anonymised) and the job removes it after DRAFT_RETENTION_DAYS if it stays unpaid.
 */
export function subscribeAbandonedCheckouts(deps: AppDeps) {
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx.delete(checkoutFollowups).where(eq(checkoutFollowups.userId, e.userId));
    await tx.delete(orders).where(
      and(
        eq(orders.userId, e.userId),
        eq(orders.state, 'awaiting_advance'),
        sql`not exists (select 1 from invoices i where i.order_id = ${orders.id})`,
        sql`not exists (select 1 from installments i where i.order_id = ${orders.id} and i.state = 'paid')`,
        sql`not exists (select 1 from installments i join payment_attempts p on p.installment_id = i.id
                           where i.order_id = ${orders.id} and p.created_at > ${e.at}::timestamptz - interval '1 hour')`,
      ),
    );
  });
}
