import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  CHANGE_MAX_PLAN_MULTIPLE,
  type AdminCreateChangeBody,
  type CreateChangeBody,
  type OrderChange,
  type QuoteChangeBody,
} from '../../../contract/changes.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orderChanges } from '../../db/schema/changes.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { installments, orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import type { ChangePaid, OrderRef } from '../../lib/domain-events.ts';
import { moneyContext } from '../../lib/money-context.ts';
import type { ThreadViewer } from '../../lib/workspace-order.ts';
import { filesOfOrder } from '../order-files/order-files.ts';
import { clientHash, type TermsClient } from '../terms/terms-acceptance.ts';
import { activeAddon, addonAmount } from './addons.ts';

// Change requests on an order (docs/decisions/250-change-requests.md). States:
// requested → quoted → accepted (paid) | declined | withdrawn; or included (no charge).
// Accepting IS paying: the customer ticks "I agree to this change" at create-order, and the change
// becomes accepted when its payment settles (the `change.paid` subscriber below, in the settling
// transaction). The due date rule: docs/decisions/251-change-due-date.md.

type ChangeRow = typeof orderChanges.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The order a change route works on. Customers: their own, past the checkout draft; others 404. */
export interface ChangeOrder extends OrderRef {
  state: 'awaiting_advance' | 'in_progress' | 'paid' | 'delivered' | 'cancelled';
  currency: string;
  price: number;
  userId: string;
}

export async function changeOrder(db: Db | Tx, publicId: string, viewer: ThreadViewer): Promise<ChangeOrder> {
  const [row] = await db
    .select({
      orderId: orders.id,
      orderPublicId: orders.publicId,
      customerEmail: users.email,
      state: orders.state,
      currency: orders.currency,
      price: orders.price,
      userId: orders.userId,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        eq(orders.publicId, publicId),
        ne(orders.state, 'awaiting_advance'),
        viewer.side === 'customer' ? eq(orders.userId, viewer.userId) : undefined,
      ),
    )
    .limit(1);
  if (!row) throw notFound('Order not found.');
  return row;
}

export async function toChanges(db: Db | Tx, rows: ChangeRow[]): Promise<OrderChange[]> {
  const ids = rows.map((r) => r.id);
  const docs = ids.length
    ? await db
        .select({ changeId: installments.changeId, invoiceId: invoices.id })
        .from(installments)
        .innerJoin(invoices, eq(invoices.installmentId, installments.id))
        .where(and(inArray(installments.changeId, ids), inArray(invoices.series, ['invoice', 'test_invoice'])))
    : [];
  const invoiceOf = new Map(docs.map((d) => [d.changeId, d.invoiceId]));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    fileIds: r.fileIds,
    state: r.state,
    amount: r.amount,
    currency: r.currency,
    extraDays: r.extraDays,
    note: r.note,
    addonId: r.addonId,
    quotedAt: iso(r.quotedAt),
    decidedAt: iso(r.decidedAt),
    paidAt: iso(r.paidAt),
    invoiceId: invoiceOf.get(r.id) ?? null,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    declineReason: r.declineReason,
  }));
}

export async function listChanges(db: Db | Tx, order: Pick<ChangeOrder, 'orderId'>): Promise<OrderChange[]> {
  const rows = await db
    .select()
    .from(orderChanges)
    .where(eq(orderChanges.orderId, order.orderId))
    .orderBy(asc(orderChanges.createdAt), asc(orderChanges.id));
  return toChanges(db, rows);
}

const one = async (db: Db | Tx, r: ChangeRow) => (await toChanges(db, [r]))[0]!;

async function lockChange(tx: Tx, order: ChangeOrder, changeId: string): Promise<ChangeRow> {
  const [row] = await tx
    .select()
    .from(orderChanges)
    .where(and(eq(orderChanges.id, changeId), eq(orderChanges.orderId, order.orderId)))
    .for('update');
  if (!row) throw notFound('Change not found.');
  return row;
}

/** A quote is at most CHANGE_MAX_PLAN_MULTIPLE × the order's plan price (a typo guard). */
function checkAmount(order: ChangeOrder, amount: number) {
  const max = order.price * CHANGE_MAX_PLAN_MULTIPLE;
  if (amount > max)
    throw badRequest(`A quote can be at most ${CHANGE_MAX_PLAN_MULTIPLE} × the plan price (${max} minor units of ${order.currency}).`);
}

async function checkedFiles(tx: Tx, order: ChangeOrder, fileIds: readonly string[] | undefined) {
  return (await filesOfOrder(tx, { id: order.orderId, publicId: order.orderPublicId }, fileIds ?? [])).map((f) => f.id);
}

async function publishWaiting(deps: AppDeps, tx: Tx, order: ChangeOrder, r: ChangeRow, by: 'customer' | 'agency', at: Date) {
  await deps.events.publish(tx, 'change.updated', {
    by,
    orderId: order.orderId,
    orderPublicId: order.orderPublicId,
    customerEmail: order.customerEmail,
    changeId: r.id,
    title: r.title,
    state: r.state,
    amount: r.amount,
    currency: r.currency,
    extraDays: r.extraDays,
    at,
  });
}

/**
 * The customer asks for a change, on an order whose advance is paid and that is not yet delivered
 * (after delivery, support requests apply). From an active add-on it arrives already quoted at the
 * add-on's price in the order's currency and its days: the customer only accepts and pays.
 */
export async function requestChange(
  deps: AppDeps,
  order: ChangeOrder,
  userId: string,
  body: CreateChangeBody,
  now = new Date(),
): Promise<OrderChange> {
  if (order.state === 'delivered') throw conflict('This website is delivered: ask for changes through a support request.');
  refuseCancelled(order);
  return deps.events.transaction(async (tx) => {
    const fileIds = await checkedFiles(tx, order, body.fileIds);
    let quote: {
      amount: number;
      extraDays: number;
      addonId: string;
      quotedAt: Date;
      quoteVersion: number;
      state: 'quoted';
    } | null = null;
    if (body.addonId) {
      const addon = await activeAddon(tx, body.addonId);
      const currency = findCurrency(order.currency, moneyContext(deps).currencies);
      if (!currency) throw conflict(`Add-ons are not sold in ${order.currency}.`);
      quote = {
        amount: addonAmount(addon.price, currency),
        extraDays: addon.extraDays,
        addonId: addon.id,
        quotedAt: now,
        quoteVersion: 1,
        state: 'quoted',
      };
    }
    const [row] = await tx
      .insert(orderChanges)
      .values({
        orderId: order.orderId,
        title: body.title,
        description: body.description,
        fileIds,
        currency: order.currency,
        createdBy: 'customer',
        createdByUserId: userId,
        createdAt: now,
        ...(quote ?? {}),
      })
      .returning();
    await publishWaiting(deps, tx, order, row!, 'customer', now);
    return one(tx, row!);
  });
}

/** A cancelled order takes no more work (docs/decisions/321-cancel-and-refund.md). */
function refuseCancelled(order: Pick<ChangeOrder, 'state'>) {
  if (order.state === 'cancelled') throw conflict('This order is cancelled: nothing more can be changed on it.');
}

/** The founder (owner or staff) raises a change: quoted when an amount is given, included when marked so, else requested. */
export async function agencyCreateChange(
  deps: AppDeps,
  order: ChangeOrder,
  actorUserId: string,
  body: AdminCreateChangeBody,
  now = new Date(),
): Promise<OrderChange> {
  refuseCancelled(order);
  if (!body.included && body.amount !== undefined) checkAmount(order, body.amount);
  return deps.events.transaction(async (tx) => {
    const state = body.included ? 'included' : body.amount !== undefined ? 'quoted' : 'requested';
    const [row] = await tx
      .insert(orderChanges)
      .values({
        orderId: order.orderId,
        title: body.title,
        description: body.description,
        currency: order.currency,
        state,
        amount: body.included ? 0 : (body.amount ?? null),
        extraDays: body.extraDays ?? 0,
        note: body.note ?? null,
        createdBy: 'agency',
        createdByUserId: actorUserId,
        quotedAt: state === 'quoted' ? now : null,
        quoteVersion: state === 'quoted' ? 1 : 0,
        decidedAt: state === 'included' ? now : null,
        createdAt: now,
      })
      .returning();
    await recordAudit(tx, {
      actorUserId,
      action: 'order.change.create',
      entity: 'order_change',
      entityId: row!.id,
      before: null,
      after: {
        orderId: order.orderPublicId,
        title: row!.title,
        state,
        amount: row!.amount,
        extraDays: row!.extraDays,
      },
    });
    // An included change moves the delivery like a paid one (decision 251): no payment will.
    if (state === 'included' && row!.extraDays > 0) await addChangeDays(tx, order.orderId, row!.extraDays);
    await publishWaiting(deps, tx, order, row!, 'agency', now);
    return one(tx, row!);
  });
}

/** The founder quotes (or re-quotes) a change; only while it is not accepted, declined, withdrawn or included. */
export async function quoteChange(
  deps: AppDeps,
  order: ChangeOrder,
  changeId: string,
  actorUserId: string,
  body: QuoteChangeBody,
  now = new Date(),
): Promise<OrderChange> {
  refuseCancelled(order);
  checkAmount(order, body.amount);
  return deps.events.transaction(async (tx) => {
    const before = await lockChange(tx, order, changeId);
    if (before.state !== 'requested' && before.state !== 'quoted')
      throw conflict(`This change is ${before.state}: its quote can no longer change.`);
    const [row] = await tx
      .update(orderChanges)
      .set({
        state: 'quoted',
        amount: body.amount,
        extraDays: body.extraDays,
        note: body.note ?? before.note,
        quotedAt: now,
        // Every quote is a new version: a checkout opened at another one is never accepted
        // (docs/decisions/332-change-quote-version.md).
        quoteVersion: before.quoteVersion + 1,
      })
      .where(eq(orderChanges.id, changeId))
      .returning();
    await recordAudit(tx, {
      actorUserId,
      action: 'order.change.quote',
      entity: 'order_change',
      entityId: changeId,
      before: {
        state: before.state,
        amount: before.amount,
        extraDays: before.extraDays,
      },
      after: {
        orderId: order.orderPublicId,
        state: 'quoted',
        amount: body.amount,
        extraDays: body.extraDays,
      },
    });
    await publishWaiting(deps, tx, order, row!, 'agency', now);
    return one(tx, row!);
  });
}

/** The customer declines a quote (or a request not yet quoted), with an optional reason. */
export async function declineChange(
  deps: AppDeps,
  order: ChangeOrder,
  changeId: string,
  reason: string | undefined,
  now = new Date(),
): Promise<OrderChange> {
  return deps.events.transaction(async (tx) => {
    const before = await lockChange(tx, order, changeId);
    if (before.state !== 'quoted' && before.state !== 'requested')
      throw conflict(`This change is ${before.state}: it can no longer be declined.`);
    const [row] = await tx
      .update(orderChanges)
      .set({ state: 'declined', declineReason: reason || null, decidedAt: now })
      .where(eq(orderChanges.id, changeId))
      .returning();
    await publishWaiting(deps, tx, order, row!, 'customer', now);
    return one(tx, row!);
  });
}

/** Its author takes a change back, before it is accepted. */
export async function withdrawChange(
  deps: AppDeps,
  order: ChangeOrder,
  changeId: string,
  side: 'customer' | 'agency',
  now = new Date(),
): Promise<OrderChange> {
  return deps.events.transaction(async (tx) => {
    const before = await lockChange(tx, order, changeId);
    if (before.createdBy !== side) throw conflict('Only who asked for a change can withdraw it; decline it instead.');
    if (before.state !== 'quoted' && before.state !== 'requested')
      throw conflict(`This change is ${before.state}: it can no longer be withdrawn.`);
    const [row] = await tx
      .update(orderChanges)
      .set({ state: 'withdrawn', decidedAt: now })
      .where(eq(orderChanges.id, changeId))
      .returning();
    await publishWaiting(deps, tx, order, row!, side, now);
    return one(tx, row!);
  });
}

/** The words the customer agrees to, hashed into the acceptance record. */
export const changeWording = (r: Pick<ChangeRow, 'title' | 'amount' | 'currency' | 'extraDays'>) =>
  `I agree to this change: ${r.title} — ${r.amount} ${r.currency} (minor units) + tax · delivery moves by ${r.extraDays} days`;

/**
 * What create-order needs to charge a change: the customer's own order, the change quoted (not
 * requested, declined, withdrawn, included or paid). The amount is the quote's, never the client's.
 */
export async function changeForPayment(db: Db | Tx, userId: string, orderPublicId: string, changeId: string) {
  const order = await changeOrder(db, orderPublicId, {
    side: 'customer',
    userId,
  });
  const [row] = await db
    .select()
    .from(orderChanges)
    .where(and(eq(orderChanges.id, changeId), eq(orderChanges.orderId, order.orderId)))
    .limit(1);
  if (!row) throw notFound('Change not found.');
  if (order.state === 'cancelled') throw conflict('This order is cancelled: nothing more can be changed or paid on it.');
  if (row.state === 'accepted') throw conflict('This change is already paid.');
  if (row.state !== 'quoted' || row.amount === null)
    throw conflict(row.state === 'requested' ? 'This change has no quote yet.' : `This change is ${row.state}: there is nothing to pay.`);
  return { order, change: row as ChangeRow & { amount: number } };
}

/**
 * In the transaction that records a change's checkout: the change, locked, must still be quoted at
 * the version the checkout read its price at (a re-quote takes the same lock), else 409 and nothing
 * is recorded (docs/decisions/332-change-quote-version.md).
 */
export async function lockQuoteVersion(tx: Tx, change: Pick<ChangeRow, 'id' | 'quoteVersion'>): Promise<void> {
  const [now] = await tx
    .select({ state: orderChanges.state, quoteVersion: orderChanges.quoteVersion })
    .from(orderChanges)
    .where(eq(orderChanges.id, change.id))
    .for('update');
  if (!now || now.state !== 'quoted' || now.quoteVersion !== change.quoteVersion)
    throw conflict(
      'The quote of this change changed while the checkout opened: nothing was charged. Reload the page to see the new quote.',
    );
}

/** "I agree to this change", recorded like the checkout's terms (decision 146): when, which words, which client. */
export async function recordChangeAcceptance(tx: Tx, change: ChangeRow, orderPublicId: string, at: Date, client: TermsClient | undefined) {
  const ua = client?.headers['user-agent'];
  await tx
    .update(orderChanges)
    .set({
      acceptedAt: at,
      acceptedWordingHash: createHash('sha256').update(changeWording(change)).digest('hex').slice(0, 16),
      acceptedClientHash: client ? clientHash(orderPublicId, client.ip, (Array.isArray(ua) ? ua[0] : ua) ?? '') : null,
    })
    .where(eq(orderChanges.id, change.id));
}

/** Adds a change's days to the order: to the due date when it is set, and to what the UI approval will add. */
async function addChangeDays(tx: Tx, orderId: string, days: number) {
  await tx
    .update(orders)
    .set({
      changeDays: sql`${orders.changeDays} + ${days}`,
      dueDate: sql`case when ${orders.dueDate} is null then null else (${orders.dueDate} + ${days}::int)::date end`,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, orderId));
}

/**
 * The change's payment settled (in the settling transaction): it is accepted, and the delivery
 * moves by its days; then `change.accepted` (its document and receipt follow it). Once — a replay
 * finds it accepted and changes nothing.
 */
export async function acceptPaidChange(deps: AppDeps, tx: Tx, e: ChangePaid): Promise<void> {
  const [row] = await tx
    .update(orderChanges)
    .set({ state: 'accepted', paidAt: e.paidAt, decidedAt: e.paidAt })
    .where(and(eq(orderChanges.id, e.changeId), eq(orderChanges.state, 'quoted')))
    .returning({ extraDays: orderChanges.extraDays });
  if (!row) return;
  if (row.extraDays > 0) await addChangeDays(tx, e.orderId, row.extraDays);
  await deps.events.publish(tx, 'change.accepted', e);
}

/** Changes waiting for someone, for the dashboard and the back office: per order, how many wait for the customer / the agency. */
export async function waitingChanges(db: Db | Tx, orderIds?: string[]): Promise<Map<string, { forCustomer: number; forAgency: number }>> {
  if (orderIds && !orderIds.length) return new Map();
  const rows = await db
    .select({
      orderId: orderChanges.orderId,
      state: orderChanges.state,
      n: sql<number>`count(*)::int`,
    })
    .from(orderChanges)
    .where(and(inArray(orderChanges.state, ['requested', 'quoted']), orderIds ? inArray(orderChanges.orderId, orderIds) : undefined))
    .groupBy(orderChanges.orderId, orderChanges.state);
  const map = new Map<string, { forCustomer: number; forAgency: number }>();
  for (const r of rows) {
    const m = map.get(r.orderId) ?? { forCustomer: 0, forAgency: 0 };
    if (r.state === 'quoted') m.forCustomer += Number(r.n);
    else m.forAgency += Number(r.n);
    map.set(r.orderId, m);
  }
  return map;
}
