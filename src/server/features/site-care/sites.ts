import { and, count, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { siteCareOrders, watchedSites } from '../../db/schema/site-care.ts';
import { badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import { extensionCoveredUntilSql, supportWindow } from '../support/support-window.ts';
import { MAX_SITES_PER_ORDER } from '../../../contract/site-care.ts';
import { AddressRefused, pinnedAddress, systemResolve, urlProblem, type Resolve } from './address-policy.ts';

// Which sites an order watches (docs/decisions/325-site-checks-in-the-job-pass.md): its delivery
// link from delivery on, and up to 4 more URLs the agency adds. A site is watched while the
// included support or the maintenance plan covers the order (the support window with the plan's
// extension on deps.queries.supportExtension), or while the owner keeps it; otherwise watching
// stops with a note and starts again when one holds.

export const STOPPED_NOTE = 'Not watched: the included support and the maintenance plan have ended.';

/** The first check of a new site: somewhere in the next interval, so that starts spread out. */
export const firstCheckAt = (now: Date, intervalSeconds: number) =>
  new Date(now.getTime() + Math.floor(Math.random() * intervalSeconds * 1000));

/** The resolver the checks use: the system's, or the one a test gives buildApp (a DNS adapter, like the other outside services). */
export const resolverOf = (deps: AppDeps): Resolve => deps.siteCareResolve ?? systemResolve;

/** On delivery: the delivery link is watched (once per order; it follows orders.delivery_url). */
export async function watchDeliveryLink(deps: AppDeps, tx: Tx, order: OrderRef, at: Date) {
  await tx
    .insert(watchedSites)
    .values({ orderId: order.orderId, isDeliveryLink: true, nextCheckAt: firstCheckAt(at, deps.config.SITE_CHECK_INTERVAL_SECONDS) })
    .onConflictDoNothing();
}

/** Whether a URL may be watched: http(s), and public unless SITE_CHECK_ALLOW_PRIVATE (400 otherwise). */
export async function assertWatchable(deps: AppDeps, raw: string): Promise<string> {
  const problem = urlProblem(raw);
  if (problem) throw badRequest(problem, [{ path: 'url', message: problem }]);
  const url = new URL(raw);
  try {
    await pinnedAddress(url.hostname, { allowPrivate: deps.config.SITE_CHECK_ALLOW_PRIVATE, resolve: resolverOf(deps) });
  } catch (err) {
    const message = err instanceof AddressRefused ? 'This URL does not lead to a public address.' : 'This host name does not resolve.';
    throw badRequest(message, [{ path: 'url', message }]);
  }
  return url.href;
}

export async function addSite(
  deps: AppDeps,
  order: OrderRef,
  actorUserId: string,
  body: { url: string; expectText?: string; domainRenewedBy?: 'agency' | 'customer' },
  now: Date,
) {
  const url = await assertWatchable(deps, body.url);
  const id = await deps.events.transaction(async (tx) => {
    // One order's list at a time, so two adds never make a sixth.
    await tx.execute(sql`select 1 from orders where id = ${order.orderId} for update`);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(watchedSites).where(eq(watchedSites.orderId, order.orderId));
    const [{ d } = { d: 0 }] = await tx
      .select({ d: count() })
      .from(watchedSites)
      .where(and(eq(watchedSites.orderId, order.orderId), eq(watchedSites.isDeliveryLink, true)));
    // The delivery link counts as one, watched or to be watched once the order is delivered.
    if (n + (d ? 0 : 1) >= MAX_SITES_PER_ORDER)
      throw conflict(`At most ${MAX_SITES_PER_ORDER} sites per order, the delivery link included.`);
    const [row] = await tx
      .insert(watchedSites)
      .values({
        orderId: order.orderId,
        url,
        expectText: body.expectText ?? null,
        domainRenewedBy: body.domainRenewedBy ?? 'agency',
        addedBy: actorUserId,
        nextCheckAt: firstCheckAt(now, deps.config.SITE_CHECK_INTERVAL_SECONDS),
      })
      .returning({ id: watchedSites.id });
    await recordAudit(tx, {
      actorUserId,
      action: 'order.site.add',
      entity: 'order',
      entityId: order.orderPublicId,
      before: null,
      after: { url, expectText: body.expectText ?? null },
    });
    return row!.id;
  });
  await refreshWatching(deps, now, order.orderId);
  return id;
}

export async function removeSite(deps: AppDeps, order: OrderRef, actorUserId: string, siteId: string) {
  await deps.events.transaction(async (tx) => {
    const [site] = await tx
      .select()
      .from(watchedSites)
      .where(and(eq(watchedSites.id, siteId), eq(watchedSites.orderId, order.orderId)));
    if (!site) throw notFound('Site not found.');
    if (site.isDeliveryLink) throw conflict('The delivery link is watched as long as the order is; change the link on the order instead.');
    await tx.delete(watchedSites).where(eq(watchedSites.id, siteId));
    await recordAudit(tx, {
      actorUserId,
      action: 'order.site.remove',
      entity: 'order',
      entityId: order.orderPublicId,
      before: { url: site.url },
      after: null,
    });
  });
}

export async function settingsOf(db: Db | Tx, orderId: string) {
  const [row] = await db.select().from(siteCareOrders).where(eq(siteCareOrders.orderId, orderId));
  return { customerMails: row?.customerMails ?? true, keepWatching: row?.keepWatching ?? false };
}

export async function setCustomerMails(deps: AppDeps, order: OrderRef, customerMails: boolean) {
  await deps.db
    .insert(siteCareOrders)
    .values({ orderId: order.orderId, customerMails })
    .onConflictDoUpdate({ target: siteCareOrders.orderId, set: { customerMails, updatedAt: new Date() } });
  return settingsOf(deps.db, order.orderId);
}

export async function setKeepWatching(deps: AppDeps, order: OrderRef, actorUserId: string, keepWatching: boolean, now: Date) {
  await deps.events.transaction(async (tx) => {
    const before = await settingsOf(tx, order.orderId);
    await tx
      .insert(siteCareOrders)
      .values({ orderId: order.orderId, keepWatching })
      .onConflictDoUpdate({ target: siteCareOrders.orderId, set: { keepWatching, updatedAt: now } });
    await recordAudit(tx, {
      actorUserId,
      action: 'order.site_care.keep',
      entity: 'order',
      entityId: order.orderPublicId,
      before: { keepWatching: before.keepWatching },
      after: { keepWatching },
    });
  });
  await refreshWatching(deps, now, order.orderId);
  return settingsOf(deps.db, order.orderId);
}

/**
 * Sets `watching` of every site (or one order's) from the rule: covered by support or the plan at
 * `now`, or kept by the owner. A site that starts again is checked within one interval. One
 * statement when the plan's extension has its SQL form; otherwise order by order.
 */
export async function refreshWatching(deps: AppDeps, now: Date, orderId?: string): Promise<number> {
  const extension = deps.queries.supportExtension;
  const coveredSql = extensionCoveredUntilSql(extension, 'o.id');
  const interval = deps.config.SITE_CHECK_INTERVAL_SECONDS;
  if (coveredSql) {
    const rows = await deps.database.query<{ id: string }>(
      `with rule as (
         select o.id as order_id,
                coalesce(k.keep_watching, false)
                  or coalesce(greatest(d.completed_at + make_interval(days => $2::int), ${coveredSql}) > $1::timestamptz, false) as on
           from orders o
           left join order_stages d on d.order_id = o.id and d.stage = ${DELIVERY_STAGE} and d.completed_at is not null
           left join site_care_orders k on k.order_id = o.id
          where o.id in (select order_id from watched_sites) and ($4::uuid is null or o.id = $4::uuid))
       update watched_sites s
          set watching = rule.on,
              stopped_note = case when rule.on then null else $5 end,
              next_check_at = case when rule.on then $1::timestamptz + random() * make_interval(secs => $3::int) else s.next_check_at end,
              next_daily_at = case when rule.on then $1::timestamptz else s.next_daily_at end
         from rule
        where s.order_id = rule.order_id and s.watching is distinct from rule.on
       returning s.id`,
      [now.toISOString(), deps.config.SUPPORT_DAYS, interval, orderId ?? null, STOPPED_NOTE],
    );
    return rows.length;
  }
  const orderIds = orderId
    ? [orderId]
    : (await deps.database.query<{ order_id: string }>('select distinct order_id from watched_sites')).map((r) => r.order_id);
  let changed = 0;
  for (const id of orderIds) {
    const window = await supportWindow(deps.db, extension, deps.config.SUPPORT_DAYS, id, now);
    const { keepWatching } = await settingsOf(deps.db, id);
    const on = window.covered || keepWatching;
    const rows = await deps.database.query<{ id: string }>(
      `update watched_sites set watching = $2, stopped_note = case when $2 then null else $3 end,
              next_check_at = case when $2 then $4::timestamptz + random() * make_interval(secs => $5::int) else next_check_at end,
              next_daily_at = case when $2 then $4::timestamptz else next_daily_at end
        where order_id = $1 and watching is distinct from $2 returning id`,
      [id, on, STOPPED_NOTE, now.toISOString(), interval],
    );
    changed += rows.length;
  }
  return changed;
}
