import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { guardRow, notParked, PARKED } from '../../lib/pass-rows.ts';
import type { AppDeps } from '../../deps.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { orderFiles } from '../../db/schema/order-files.ts';

// Decision 192: a deleted account's orders, payments and invoices are kept INVOICE_RETENTION_YEARS
// for the tax law, with what the person wrote already erased. What was still kept only because the
// order was (the agency's own texts on it: thread, support, review pins, brief, internal note, stage
// notes, the delivered site's address, the terms-acceptance fingerprint) goes once that time has run
// out. The money records themselves (orders' amounts, installments, payments, invoices — immutable)
// stay: they are anonymous by then. The order files go too, rows and bytes (decision 231).

/**
 * The orders of deleted accounts whose retention has run out — deleted more than the retention ago,
 * and no invoice of the order issued within it (the clock runs from the last one) — that still hold
 * something to clear.
 */
async function expiredOrders(tx: Db, cutoff: Date, now: Date): Promise<string[]> {
  const rows = await tx
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        lt(users.deletedAt, cutoff),
        notParked('retention-purge', orders.id, now),
        sql`not exists (select 1 from invoices i where i.order_id = ${orders.id} and i.issued_at >= ${cutoff})`,
        sql`(${orders.deliveryUrl} is not null
             or exists (select 1 from order_messages m where m.order_id = ${orders.id})
             or exists (select 1 from support_requests r where r.order_id = ${orders.id})
             or exists (select 1 from order_reviews r join order_review_comments c on c.review_id = r.id where r.order_id = ${orders.id})
             or exists (select 1 from order_briefs b where b.order_id = ${orders.id})
             or exists (select 1 from admin_order_notes n where n.order_id = ${orders.id})
             or exists (select 1 from order_stages s where s.order_id = ${orders.id} and s.note is not null)
             or exists (select 1 from order_files f where f.order_id = ${orders.id}))`,
      ),
    )
    .limit(500);
  return rows.map((r) => r.id);
}

/**
 * One pass of the job (the jobs runner calls it; `now` is the clock tests move). Returns how many
 * orders it cleared. Each order is cleared in its own transaction: one that cannot be is parked
 * (lib/pass-rows.ts) and the others still go.
 */
export async function purgeRetainedRecords(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - deps.config.INVOICE_RETENTION_YEARS);
  const ids = await expiredOrders(deps.db, cutoff, now);
  let count = 0;
  for (const id of ids) {
    const storageKeys = await guardRow(deps, 'retention-purge', now, (claim) =>
      deps.db.transaction(async (tx) => {
        claim(id);
        return purgeOrder(tx, id);
      }),
    );
    if (storageKeys === PARKED) continue;
    count++;
    // The bytes after the commit; one not deleted now has no row left, so the stored-object sweep
    // (order-files/sweep-objects.ts) removes it later.
    for (const key of storageKeys) {
      await deps.fileStorage
        .delete(key)
        .catch((err: unknown) =>
          deps.log.warn({ err: (err as Error).message, storageKey: key }, 'retention purge: file bytes not deleted; the sweep retries'),
        );
    }
  }
  return count;
}

/** Clears one order's kept texts and files (rows); answers the storage keys whose bytes go after the commit. */
async function purgeOrder(tx: Tx, id: string): Promise<string[]> {
  const list = sql`(${id}::uuid)`;
  const reviews = sql`(select r.id from order_reviews r where r.order_id in ${list})`;
  for (const statement of [
    sql`delete from order_messages where order_id in ${list}`,
    sql`delete from support_requests where order_id in ${list}`,
    sql`delete from order_review_comments where review_id in ${reviews}`,
    sql`update order_review_decisions set comment = null where review_id in ${reviews}`,
    sql`delete from order_briefs where order_id in ${list}`,
    sql`delete from admin_order_notes where order_id in ${list}`,
    sql`update order_stages set note = null where order_id in ${list}`,
    sql`update order_terms_acceptances set client_hash = null where order_id in ${list}`,
    sql`update orders set delivery_url = null where id in ${list}`,
    // The order files (the review rounds keep their decisions, without the files).
    sql`delete from order_review_files where review_id in ${reviews}`,
  ]) {
    await tx.execute(statement);
  }
  const files = await tx
    .delete(orderFiles)
    .where(inArray(orderFiles.orderId, [id]))
    .returning({ key: orderFiles.storageKey });
  return files.map((f) => f.key);
}
