import { and, eq, inArray } from 'drizzle-orm';
import type { InvoiceSnapshot } from '../../../contract/invoices.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { billingDetails, invoices } from '../../db/schema/invoices.ts';
import type { MaintenanceCharged } from '../../lib/domain-events.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { type IssuedInvoice, buyerOf, insertNumberedInvoice, sellerOf } from './issue-invoice.ts';

/**
 * The invoice of one maintenance-plan charge (decision 175), in the charging
 * transaction: the same series and counter as the orders' invoices (TEST series for a test-mode
 * charge, decision 120). Idempotent per charge — the charge row is unique per payment id, and a
 * second call returns the first invoice.
 */
export async function issueChargeInvoice(deps: AppDeps, tx: Tx, e: MaintenanceCharged): Promise<IssuedInvoice> {
  const [existing] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.maintenanceChargeId, e.chargeId), inArray(invoices.series, ['invoice', 'test_invoice'])))
    .limit(1);
  if (existing) return existing;
  const [row] = await tx
    .select({ order: orders, user: users, billing: billingDetails })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(billingDetails, eq(billingDetails.userId, users.id))
    .where(eq(orders.id, e.orderId))
    .limit(1);
  if (!row) throw new Error(`no order ${e.orderId} to invoice a maintenance charge of`);
  const { order, user, billing } = row;
  const snapshot: InvoiceSnapshot = {
    seller: sellerOf(deps.config),
    buyer: buyerOf(user, billing),
    orderPublicId: order.publicId,
    description: `Website maintenance plan (monthly) — order ${order.publicId}`,
    currency: e.currency,
    minorDigits: displayCurrency(moneyContext(deps), e.currency).minorDigits,
    listPrice: e.amount,
    price: e.amount,
    discount: 0,
    discountPercent: 0,
    couponCode: null,
    fee: 0,
    total: e.amount,
    installment: { kind: 'maintenance', label: 'Maintenance plan, one month', amount: e.amount },
    charge: { periodStart: e.periodStart.toISOString(), periodEnd: e.periodEnd.toISOString() },
    paidBefore: 0,
    remainingAfter: 0,
    paymentId: e.paymentId,
    paidAt: e.paidAt.toISOString(),
    timeZone: deps.config.INVOICE_TIME_ZONE,
  };
  const series = e.testMode ? 'test_invoice' : 'invoice';
  return insertNumberedInvoice(deps, tx, series, {
    orderId: order.id,
    userId: user.id,
    maintenanceChargeId: e.chargeId,
    providerPaymentId: e.paymentId,
    currency: e.currency,
    amount: e.amount,
    snapshot,
    issuedAt: e.paidAt,
  });
}
