import { and, eq, inArray } from 'drizzle-orm';
import type { PlanWithoutGst } from '../../../contract/maintenance.ts';
import type { MaintenanceQuote } from '../../../domain/maintenance-plan.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { billingDetails } from '../../db/schema/invoices.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { monthlyQuoteFor, planBuyerOf } from '../../lib/maintenance-price.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { renderEmail } from '../mail/render-email.ts';
import { awaitOther, claimStaleMs, planName, providerPlanId, rethrowProviderDown } from './subscribe.ts';
import { formatDate } from '../../../domain/when.ts';
import { mailTimeZone } from '../mail/mail-time.ts';

// Plans charged without the GST they owe, and the owner's move of each to its price with GST at the
// next cycle (docs/decisions/322-maintenance-plan-gst.md). Razorpay changes a subscription's price
// only through another plan: PATCH /v1/subscriptions/{id} with the plan of the new amount and
// schedule_change_at "cycle_end" — the month already paid stays as it was.

type Sub = typeof maintenanceSubscriptions.$inferSelect;
type Row = {
  sub: Sub;
  orderPublicId: string;
  email: string;
  name: string | null;
  tax: (typeof orders.$inferSelect)['tax'];
  billing: { country: string | null; stateCode: string | null; gstin: string | null } | null;
};

/** Plans that recur: charged every month, not set to end. */
const RUNNING = ['authenticated', 'active', 'pending'] as const;

const rowsOf = (tx: AppDeps['db'] | Tx) =>
  tx
    .select({
      sub: maintenanceSubscriptions,
      orderPublicId: orders.publicId,
      email: users.email,
      name: users.name,
      tax: orders.tax,
      billing: { country: billingDetails.country, stateCode: billingDetails.stateCode, gstin: billingDetails.gstin },
    })
    .from(maintenanceSubscriptions)
    .innerJoin(orders, eq(orders.id, maintenanceSubscriptions.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(billingDetails, eq(billingDetails.userId, orders.userId));

/** The month's quote for the plan's buyer now, at the price the plan was sold at (its amount, for a plan opened flat). */
function quoteOfRow(deps: AppDeps, r: Row, at: Date): MaintenanceQuote {
  const buyer = planBuyerOf({ billing: r.billing, orderBuyer: r.tax?.buyer }, r.sub.currency);
  return monthlyQuoteFor(deps, r.sub.currency, buyer, at, r.sub.price ?? r.sub.amount);
}

/** Charged its price while GST is added on top of it for this buyer: the amount holds no tax. */
const withoutGst = (r: Row, q: MaintenanceQuote) =>
  r.sub.amount === (r.sub.price ?? r.sub.amount) && q.taxAdded && q.total !== r.sub.amount;

const viewOf = (r: Row, q: MaintenanceQuote): PlanWithoutGst => ({
  id: r.sub.id,
  orderId: r.orderPublicId,
  state: r.sub.state,
  currency: r.sub.currency,
  amount: r.sub.amount,
  newAmount: q.total,
  pendingAmount: r.sub.pendingAmount,
  pendingFrom: r.sub.pendingFrom?.toISOString() ?? null,
});

/** The overview's list (owner only): running plans priced without GST, the ones already moved with their date. */
export async function plansWithoutGst(deps: AppDeps, now = new Date()): Promise<PlanWithoutGst[]> {
  if (deps.config.TAX_REGIME !== 'gst' || deps.config.PRICES_INCLUDE_TAX) return [];
  const rows = await rowsOf(deps.db)
    .where(and(inArray(maintenanceSubscriptions.state, [...RUNNING]), eq(maintenanceSubscriptions.cancelAtPeriodEnd, false)))
    .orderBy(maintenanceSubscriptions.createdAt);
  return rows.flatMap((r) => {
    const q = quoteOfRow(deps, r, now);
    return withoutGst(r, q) ? [viewOf(r, q)] : [];
  });
}

type Step = { kind: 'done'; view: PlanWithoutGst } | { kind: 'call'; row: Row; quote: MaintenanceQuote } | { kind: 'busy' };

/**
 * Moves one plan charged without GST to its price with GST from the end of its paid period: one
 * explicit act of the owner per plan. Like cancel, the provider is called outside any lock
 * (docs/decisions/230-provider-calls-outside-locks.md): a short transaction marks the request
 * (reprice_requested_at), the provider answers, a second one records the pending plan and amount,
 * the audit record and the customer's mail (outbox). Again, or a double click: the same answer and
 * one PATCH; a mark left by a crash is taken over after the provider's timeout (PATCHing the same
 * plan twice is harmless).
 */
export async function repricePlan(deps: AppDeps, actorUserId: string, subscriptionId: string, now = new Date()): Promise<PlanWithoutGst> {
  const { provider } = moneyContext(deps);
  const claim = (): Promise<Step> =>
    deps.db.transaction(async (tx) => {
      const [row] = await rowsOf(tx).where(eq(maintenanceSubscriptions.id, subscriptionId)).for('update', { of: maintenanceSubscriptions });
      if (!row) throw notFound('Subscription not found.');
      const quote = quoteOfRow(deps, row, now);
      if (row.sub.pendingAmount !== null) return { kind: 'done', view: viewOf(row, quote) };
      if (!(RUNNING as readonly string[]).includes(row.sub.state) || row.sub.cancelAtPeriodEnd)
        throw conflict('This plan does not renew, so its price cannot change.');
      if (!withoutGst(row, quote)) throw conflict('This plan is not charged without GST: nothing to change.');
      if (row.sub.provider !== provider.name)
        throw conflict('This plan was started with another payment provider; change it in that provider’s dashboard.');
      if (row.sub.repriceRequestedAt && now.getTime() - row.sub.repriceRequestedAt.getTime() < claimStaleMs(deps)) return { kind: 'busy' };
      await tx.update(maintenanceSubscriptions).set({ repriceRequestedAt: now }).where(eq(maintenanceSubscriptions.id, row.sub.id));
      return { kind: 'call', row, quote };
    });

  const call = async ({ row, quote }: { row: Row; quote: MaintenanceQuote }): Promise<PlanWithoutGst> => {
    const release = () =>
      deps.db.update(maintenanceSubscriptions).set({ repriceRequestedAt: null }).where(eq(maintenanceSubscriptions.id, row.sub.id));
    let planId: string;
    try {
      planId = await providerPlanId(deps.db, provider, { amount: quote.total, currency: quote.currency }, planName(deps));
      await provider.subscriptions.changePlanAtCycleEnd(row.sub.providerSubscriptionId, planId);
    } catch (err) {
      await release();
      return rethrowProviderDown(deps, { subscription: row.sub.providerSubscriptionId })(err);
    }
    return deps.db.transaction(async (tx) => {
      // The change applies from the end of the period paid (or the first charge, not yet made).
      const from = row.sub.paidUntil ?? row.sub.startsAt ?? now;
      const [updated] = await tx
        .update(maintenanceSubscriptions)
        .set({
          pendingPlanId: planId,
          pendingAmount: quote.total,
          pendingFrom: from,
          price: row.sub.price ?? row.sub.amount,
          repricedAt: now,
          repriceRequestedAt: null,
          updatedAt: now,
        })
        .where(eq(maintenanceSubscriptions.id, row.sub.id))
        .returning();
      await recordAudit(tx, {
        actorUserId,
        action: 'maintenance.reprice',
        entity: 'maintenance_subscription',
        entityId: row.sub.id,
        before: { amount: row.sub.amount, currency: row.sub.currency, providerPlanId: row.sub.providerPlanId },
        after: { amount: quote.total, currency: quote.currency, providerPlanId: planId, from: from.toISOString(), taxes: quote.taxes },
      });
      await deps.mailer.enqueue(tx, row.email, REPRICE_TEMPLATE, repriceMail(deps, row, quote, from));
      return viewOf({ ...row, sub: updated! }, quote);
    });
  };

  const first = await claim();
  if (first.kind === 'done') return first.view;
  if (first.kind === 'call') return call(first);
  return awaitOther(
    deps,
    async () => {
      const again = await claim();
      if (again.kind === 'done') return again.view;
      if (again.kind === 'call') return call(again);
      return null;
    },
    'This plan’s price is being changed; please try again in a minute.',
  );
}

export const REPRICE_TEMPLATE = 'maintenance-reprice';

/** The customer is told the new monthly amount, its tax and from when, before it is charged. */
function repriceMail(deps: AppDeps, row: Row, q: MaintenanceQuote, from: Date) {
  const ctx = moneyContext(deps);
  const currency = findCurrency(q.currency, ctx.currencies) ?? ctx.defaultCurrency;
  const money = (minor: number) => formatMoney(minor, currency);
  const day = formatDate(from, mailTimeZone(deps.config));
  const taxes = q.taxes.map((t) => `${t.kind} ${t.rate} % ${money(t.amount)}`).join(' + ');
  return renderEmail(deps.config.BRAND_NAME, {
    subject: `Your maintenance plan from ${day}: ${money(q.total)} a month`,
    heading: 'Your maintenance plan’s monthly amount',
    paragraphs: [
      `Hi ${row.name ?? 'there'}, your maintenance plan for order ${row.orderPublicId} has been charged ` +
        `${money(row.sub.amount)} a month without the GST the law adds to it.`,
      `From ${day}, the end of the period you have paid, it is ${money(q.total)} a month: ${money(q.price)} + GST (${taxes}). ` +
        `Each month's tax invoice shows the split. Nothing changes before that date, and you can still cancel at the end of any month.`,
    ],
    rows: [
      ['Order', row.orderPublicId],
      ['Until ' + day, `${money(row.sub.amount)} a month`],
      ['From ' + day, `${money(q.total)} a month (${money(q.price)} + ${taxes})`],
    ],
    action: { label: 'See your plan', url: `${deps.config.publicUrl}/status/${row.orderPublicId}?tab=support` },
  });
}
