import { and, eq, inArray } from 'drizzle-orm';
import type { DocumentKind, InvoiceSnapshot } from '../../../contract/invoices.ts';
import type { OrderTax } from '../../../contract/pricing.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { billingDetails, invoices } from '../../db/schema/invoices.ts';
import type { MaintenanceCharged } from '../../lib/domain-events.ts';
import { maintenancePeriodLabel } from '../../../domain/maintenance-plan.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { currencyOf, taxInside, taxOfCharge } from '../../lib/tax-context.ts';
import { monthlyQuoteFor, planBuyer, taxOfMonthlyQuote } from '../../lib/maintenance-price.ts';
import {
  ISSUING_KINDS,
  type IssuedInvoice,
  buyerOf,
  documentColumns,
  documentTax,
  insertNumberedInvoice,
  sellerOf,
} from './issue-invoice.ts';

/** A one-off supply paid at once: a maintenance month, a paid change request (docs/decisions/221-gst-documents.md). */
export interface OneOffCharge {
  orderId: string;
  /** What is supplied, printed as the document's line ("Website maintenance plan (monthly)"). */
  description: string;
  /** The amount paid, tax included, in minor units of `currency`. */
  amountPaid: number;
  currency: string;
  paymentId: string;
  paidAt: Date;
  /** A payment taken in test mode: numbered in the TEST series, marked as no tax invoice. */
  testMode: boolean;
  /**
   * The tax the customer was quoted (quoteOneOffCharge) when they agreed to pay; absent: the tax
   * inside the amount paid, for the buyer's billing details now.
   */
  tax?: OrderTax;
  /** The period a continuous supply pays for (a maintenance month). */
  period?: { start: Date; end: Date };
  /** The maintenance charge it documents (unique: a second call returns the first document). */
  maintenanceChargeId?: string;
  /** A paid change request (docs/decisions/250-change-requests.md): its installment (unique like a charge) and title. */
  change?: { id: string; title: string; installmentId: string };
}

/**
 * The invoice of one maintenance-plan charge (decision 175), in the charging
 * transaction: the same series and counter as the orders' invoices (TEST series for a test-mode
 * charge, decision 120). Idempotent per charge — the charge row is unique per payment id, and a
 * second call returns the first invoice.
 */
export async function quoteOneOffCharge(
  deps: AppDeps,
  tx: Tx,
  input: { orderId: string; currency: string; price: number; at?: Date },
): Promise<OrderTax & { total: number }> {
  const [order] = await tx.select({ userId: orders.userId }).from(orders).where(eq(orders.id, input.orderId)).limit(1);
  if (!order) throw new Error(`no order ${input.orderId} to quote a charge for`);
  const tax = await taxOfCharge(deps, tx, order.userId, input.currency, input.price, input.at ?? new Date());
  return { ...tax, total: tax.taxableValue + tax.taxes.reduce((s, t) => s + t.amount, 0) };
}

/**
 * Issues the tax invoice ("INVOICE" when not registered) of one one-off charge, in the caller's
 * (paying) transaction: its own number in the tax-invoice series (TEST series in test mode), the
 * tax lines, place of supply and SAC, frozen like every document. What other features call for
 * each maintenance month and each paid change request.
 */
export async function issueOneOffInvoice(deps: AppDeps, tx: Tx, charge: OneOffCharge): Promise<IssuedInvoice> {
  if (charge.maintenanceChargeId) {
    const [existing] = await tx
      .select({ id: invoices.id, number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.maintenanceChargeId, charge.maintenanceChargeId), inArray(invoices.docKind, [...ISSUING_KINDS])))
      .limit(1);
    if (existing) return existing;
  }
  if (charge.change) {
    const [existing] = await tx
      .select({ id: invoices.id, number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.installmentId, charge.change.installmentId), inArray(invoices.docKind, [...ISSUING_KINDS])))
      .limit(1);
    if (existing) return existing;
  }
  const [row] = await tx
    .select({ order: orders, user: users, billing: billingDetails })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(billingDetails, eq(billingDetails.userId, users.id))
    .where(eq(orders.id, charge.orderId))
    .limit(1);
  if (!row) throw new Error(`no order ${charge.orderId} to invoice a charge of`);
  const { order, user, billing } = row;
  const currency = currencyOf(moneyContext(deps).currencies, charge.currency);
  const tax = charge.tax ?? (await taxOfCharge(deps, tx, user.id, charge.currency, charge.amountPaid, charge.paidAt));
  const taxed = charge.tax
    ? { taxableValue: tax.taxableValue, taxes: tax.taxes, total: charge.amountPaid }
    : taxInside(tax, charge.amountPaid);
  const kind: DocumentKind = tax.regime === 'gst' ? 'tax_invoice' : 'invoice';
  const document = documentTax(deps, {
    kind,
    tax,
    testMode: charge.testMode,
    currency,
    taxed,
    adjusts: null,
    amountPaid: charge.amountPaid,
    at: charge.paidAt,
  });
  const snapshot: InvoiceSnapshot = {
    seller: sellerOf(deps.config),
    buyer: buyerOf(user, billing),
    orderPublicId: order.publicId,
    description: `${charge.description} — order ${order.publicId}`,
    currency: charge.currency,
    minorDigits: currency.minorDigits,
    listPrice: taxed.taxableValue,
    price: taxed.taxableValue,
    discount: 0,
    discountPercent: 0,
    couponCode: null,
    fee: 0,
    total: charge.amountPaid,
    installment: {
      kind: charge.change ? 'change' : 'maintenance',
      label: charge.period ? maintenancePeriodLabel(charge.period.start, deps.config.INVOICE_TIME_ZONE) : charge.description,
      amount: charge.amountPaid,
    },
    ...(charge.change ? { change: { id: charge.change.id, title: charge.change.title } } : {}),
    ...(charge.period ? { charge: { periodStart: charge.period.start.toISOString(), periodEnd: charge.period.end.toISOString() } } : {}),
    paidBefore: 0,
    remainingAfter: 0,
    paymentId: charge.paymentId,
    paidAt: charge.paidAt.toISOString(),
    timeZone: deps.config.INVOICE_TIME_ZONE,
    document,
  };
  return insertNumberedInvoice(deps, tx, charge.testMode ? 'test_invoice' : 'invoice', {
    orderId: order.id,
    userId: user.id,
    maintenanceChargeId: charge.maintenanceChargeId ?? null,
    installmentId: charge.change?.installmentId ?? null,
    providerPaymentId: charge.paymentId,
    currency: charge.currency,
    amount: charge.amountPaid,
    snapshot,
    issuedAt: charge.paidAt,
    ...documentColumns(document),
  });
}

/**
 * The invoice of one maintenance-plan charge (decision 175), in the charging
 * transaction: a one-off tax invoice for the month (a continuous supply), idempotent per charge.
 *
 * Each month is its own supply, its invoice issued when the payment is due (CGST Act s.31(5)(a)), so
 * its tax is the plan's monthly quote (domain maintenanceQuote) for the buyer's place of supply at
 * that time: the taxable value, CGST + SGST or IGST, the total in words
 * (docs/decisions/322-maintenance-plan-gst.md). When the amount charged is not that quote's total —
 * a plan still charged its price flat, or a buyer who moved since — the tax is the part of the amount
 * paid that the rates make it (taxInside), as the law takes a price that did not add the tax.
 */
export async function issueChargeInvoice(deps: AppDeps, tx: Tx, e: MaintenanceCharged): Promise<IssuedInvoice> {
  const who = await planBuyer(tx, e.orderId);
  const quote = who && monthlyQuoteFor(deps, e.currency, who.buyer, e.paidAt, e.price);
  return issueOneOffInvoice(deps, tx, {
    ...(who && quote && quote.total === e.amount ? { tax: taxOfMonthlyQuote(deps, quote, who.buyer, e.paidAt) } : {}),
    orderId: e.orderId,
    description: 'Website maintenance plan (monthly)',
    amountPaid: e.amount,
    currency: e.currency,
    paymentId: e.paymentId,
    paidAt: e.paidAt,
    testMode: e.testMode,
    period: { start: e.periodStart, end: e.periodEnd },
    maintenanceChargeId: e.chargeId,
  });
}
