import { and, count, desc, eq, inArray, isNotNull, max, sum } from 'drizzle-orm';
import type { AdminMaintenance, MaintenanceOverview, PlanView } from '../../../contract/maintenance.ts';
import type { Db, Tx } from '../../db/client.ts';
import { maintenanceCharges, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { invoices } from '../../db/schema/invoices.ts';
import type { SupportExtension } from '../support/support-window.ts';

// What the plan looks like to the customer, the support window and the founder (decision 175).

type Sub = typeof maintenanceSubscriptions.$inferSelect;

/** The order's plan: the newest subscription (a new one is only made once the last one is over). */
export async function latestSubscription(db: Db | Tx, orderId: string): Promise<Sub | undefined> {
  const [row] = await db
    .select()
    .from(maintenanceSubscriptions)
    .where(eq(maintenanceSubscriptions.orderId, orderId))
    .orderBy(desc(maintenanceSubscriptions.createdAt))
    .limit(1);
  return row;
}

/** The first charge's date while it is still to come (nothing paid yet), else null. */
const startsLater = (s: Sub): Date | null => (s.startsAt && !s.paidUntil ? s.startsAt : null);

export const planViewOf = (s: Sub): PlanView => ({
  state: s.state,
  currentPeriodEnd: s.paidUntil?.toISOString() ?? null,
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  startsAt: startsLater(s)?.toISOString() ?? null,
});

/**
 * The end of the period the order's plan has paid for, or null: the latest end over all its
 * subscriptions, whatever their state now — a cancelled or halted plan still covers what was paid.
 */
export async function paidPlanPeriodEnd(db: Db | Tx, orderId: string): Promise<Date | null> {
  const [row] = await db
    .select({ until: max(maintenanceSubscriptions.paidUntil) })
    .from(maintenanceSubscriptions)
    .where(eq(maintenanceSubscriptions.orderId, orderId));
  return row?.until ? new Date(row.until) : null;
}

/**
 * The support window's extension (`deps.queries.supportExtension`, set in ./subscriptions.ts): the plan as the support
 * page shows it, and support covered to the end of the paid period. A subscription never paid
 * (still `created`) is no plan yet.
 */
export async function maintenanceSupportExtension(db: Db | Tx, orderId: string): Promise<SupportExtension | null> {
  const sub = await latestSubscription(db, orderId);
  if (!sub || sub.state === 'created') return null;
  return {
    plan: { state: sub.state, currentPeriodEnd: sub.paidUntil, cancelAtPeriodEnd: sub.cancelAtPeriodEnd, startsAt: startsLater(sub) },
    coveredUntil: await paidPlanPeriodEnd(db, orderId),
  };
}

// The same `coveredUntil` and `plan` as SQL for the order `orderIdSql` (support-window's
// SupportExtensionForms): the order list and the support page read them in their one statement
// (docs/decisions/285-signed-in-read-path.md). The database keeps both in `order_reads` with the rule
// above — the newest subscription gives the plan unless it is only `created`, the latest end paid over
// all of them the cover; startsAt as startsLater's (migrations/1010_order_reads.sql,
// docs/decisions/317-order-reads-table.md).
maintenanceSupportExtension.coveredUntilSql = (orderIdSql: string) => `(select rd.covered_until from order_reads rd where rd.order_id = ${orderIdSql})`;
maintenanceSupportExtension.planSql = (orderIdSql: string) => `(select rd.plan from order_reads rd where rd.order_id = ${orderIdSql})`;

/** When the next monthly charge comes: the end of the paid period of a plan that goes on. */
const nextChargeOf = (s: Sub) => (s.paidUntil && !s.cancelAtPeriodEnd && (s.state === 'active' || s.state === 'pending') ? s.paidUntil.toISOString() : null);

/** The founder's view of one order's plan (admin order detail), or null when it never had one. */
export async function adminMaintenanceOf(db: Db, orderId: string): Promise<AdminMaintenance | null> {
  const sub = await latestSubscription(db, orderId);
  if (!sub) return null;
  const subs = await db.select({ id: maintenanceSubscriptions.id }).from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.orderId, orderId));
  const charges = await db
    .select({ charge: maintenanceCharges, invoiceId: invoices.id, number: invoices.number, series: invoices.series })
    .from(maintenanceCharges)
    .leftJoin(invoices, and(eq(invoices.maintenanceChargeId, maintenanceCharges.id), inArray(invoices.series, ['invoice', 'test_invoice'])))
    .where(
      inArray(
        maintenanceCharges.subscriptionId,
        subs.map((s) => s.id),
      ),
    )
    .orderBy(desc(maintenanceCharges.chargedAt));
  return {
    state: sub.state,
    provider: sub.provider,
    subscriptionId: sub.providerSubscriptionId,
    amount: sub.amount,
    currency: sub.currency,
    currentPeriodEnd: sub.paidUntil?.toISOString() ?? null,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    nextChargeAt: nextChargeOf(sub),
    pending: sub.pendingAmount !== null ? { amount: sub.pendingAmount, from: sub.pendingFrom?.toISOString() ?? null } : null,
    charges: charges.map(({ charge, invoiceId, number, series }) => ({
      paymentId: charge.providerPaymentId,
      amount: charge.amount,
      currency: charge.currency,
      periodStart: charge.periodStart.toISOString(),
      periodEnd: charge.periodEnd.toISOString(),
      chargedAt: charge.chargedAt.toISOString(),
      invoice: invoiceId && number && series ? { id: invoiceId, number, series } : null,
    })),
  };
}

/**
 * The overview's plans: active ones (active or retrying a charge, not cancelling), and what they
 * bring every month per currency. A plan set to end at its period's end is no longer recurring.
 */
export async function maintenanceOverviewOf(db: Db): Promise<MaintenanceOverview> {
  const rows = await db
    .select({ currency: maintenanceSubscriptions.currency, n: count(), total: sum(maintenanceSubscriptions.amount) })
    .from(maintenanceSubscriptions)
    .where(
      and(inArray(maintenanceSubscriptions.state, ['active', 'pending']), eq(maintenanceSubscriptions.cancelAtPeriodEnd, false), isNotNull(maintenanceSubscriptions.paidUntil)),
    )
    .groupBy(maintenanceSubscriptions.currency)
    .orderBy(maintenanceSubscriptions.currency);
  return {
    activePlans: rows.reduce((s, r) => s + Number(r.n), 0),
    mrr: rows.map((r) => ({ currency: r.currency, amountMinor: Number(r.total ?? 0) })),
  };
}
