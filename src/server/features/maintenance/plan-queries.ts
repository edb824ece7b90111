import { and, count, desc, eq, inArray, isNotNull, sql, sum } from 'drizzle-orm';
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
 * The support window's extension (`deps.queries.supportExtension`, set in ./subscriptions.ts): the plan as the support
 * page shows it, and support covered to the end of the paid period. A subscription never paid
 * (still `created`) is no plan yet. Read through the SQL forms below, the one rule for both values
 * (docs/decisions/341-one-rule-per-derived-value.md).
 */
export async function maintenanceSupportExtension(db: Db | Tx, orderId: string): Promise<SupportExtension | null> {
  const id = sql`${orderId}::uuid`;
  const result = await db.execute(
    sql`select ${sql.raw(planRuleSql('t.id'))} as plan, ${sql.raw(coveredUntilRuleSql('t.id'))} as covered_until from (select ${id} as id) t`,
  );
  const [row] = (result as unknown as { rows: { plan: PlanJson | string | null; covered_until: Date | string | null }[] }).rows;
  const plan = typeof row?.plan === 'string' ? (JSON.parse(row.plan) as PlanJson) : (row?.plan ?? null);
  if (!plan) return null;
  const dateOf = (v: string | Date | null) => (v === null ? null : new Date(v));
  return {
    plan: {
      state: plan.state,
      currentPeriodEnd: dateOf(plan.currentPeriodEnd),
      cancelAtPeriodEnd: plan.cancelAtPeriodEnd,
      startsAt: dateOf(plan.startsAt),
    },
    coveredUntil: dateOf(row!.covered_until),
  };
}

/** The plan as the `json` planRuleSql gives (PlanView's fields; timestamps as JSON strings). */
interface PlanJson {
  state: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  startsAt: string | null;
}

// The rule as SQL for the order `orderIdSql`: the newest subscription (latestSubscription's order)
// gives the plan unless it is only `created`, with startsAt as startsLater's (the first charge's date
// while nothing is paid); the latest end paid over all of the order's subscriptions, whatever their
// state, gives the cover — null while the newest is only `created`. The order list and the support
// page fold them into their one statement (docs/decisions/285-signed-in-read-path.md), by the index
// maintenance_subscriptions_order_idx.
const planRuleSql = (orderIdSql: string) =>
  `(select case when s.state <> 'created' then json_build_object('state', s.state, 'currentPeriodEnd', s.paid_until,
                                                                 'cancelAtPeriodEnd', s.cancel_at_period_end,
                                                                 'startsAt', case when s.paid_until is null then s.starts_at end) end
      from maintenance_subscriptions s where s.order_id = ${orderIdSql} order by s.created_at desc limit 1)`;
const coveredUntilRuleSql = (orderIdSql: string) =>
  `(select case when s.state <> 'created' then (select max(p.paid_until) from maintenance_subscriptions p where p.order_id = ${orderIdSql}) end
      from maintenance_subscriptions s where s.order_id = ${orderIdSql} order by s.created_at desc limit 1)`;
maintenanceSupportExtension.coveredUntilSql = coveredUntilRuleSql;
maintenanceSupportExtension.planSql = planRuleSql;

/** When the next monthly charge comes: the end of the paid period of a plan that goes on. */
const nextChargeOf = (s: Sub) =>
  s.paidUntil && !s.cancelAtPeriodEnd && (s.state === 'active' || s.state === 'pending') ? s.paidUntil.toISOString() : null;

/** The founder's view of one order's plan (admin order detail), or null when it never had one. */
export async function adminMaintenanceOf(db: Db, orderId: string): Promise<AdminMaintenance | null> {
  const sub = await latestSubscription(db, orderId);
  if (!sub) return null;
  const subs = await db
    .select({ id: maintenanceSubscriptions.id })
    .from(maintenanceSubscriptions)
    .where(eq(maintenanceSubscriptions.orderId, orderId));
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
      and(
        inArray(maintenanceSubscriptions.state, ['active', 'pending']),
        eq(maintenanceSubscriptions.cancelAtPeriodEnd, false),
        isNotNull(maintenanceSubscriptions.paidUntil),
      ),
    )
    .groupBy(maintenanceSubscriptions.currency)
    .orderBy(maintenanceSubscriptions.currency);
  return {
    activePlans: rows.reduce((s, r) => s + Number(r.n), 0),
    mrr: rows.map((r) => ({ currency: r.currency, amountMinor: Number(r.total ?? 0) })),
  };
}
