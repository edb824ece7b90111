import { and, eq, inArray } from "drizzle-orm";
import type { InvoiceSnapshot } from "../../../contract/invoices.ts";
import type { AppDeps } from "../../deps.ts";
import type { Tx } from "../../db/client.ts";
import { orders } from "../../db/schema/orders.ts";
import { users } from "../../db/schema/platform.ts";
import { billingDetails, invoices } from "../../db/schema/invoices.ts";
import type { ChangePaid } from "../../lib/domain-events.ts";
import { displayCurrency, moneyContext } from "../../lib/money-context.ts";
import {
  type IssuedInvoice,
  buyerOf,
  insertNumberedInvoice,
  sellerOf,
} from "./issue-invoice.ts";

/**
 * THE ONE PLACE a paid change request gets its document (docs/decisions/250-change-requests.md):
 * today an invoice of the orders' series and counter (TEST series for a test-mode payment,
 * decision 120), in the settling transaction. When the GST tax invoice for a one-off charge
 * exists, this function is what switches to it. Idempotent per change installment.
 */
export async function issueChangeInvoice(
  deps: AppDeps,
  tx: Tx,
  e: ChangePaid,
): Promise<IssuedInvoice> {
  const [existing] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(
      and(
        eq(invoices.installmentId, e.installmentId),
        inArray(invoices.series, ["invoice", "test_invoice"]),
      ),
    )
    .limit(1);
  if (existing) return existing;
  const [row] = await tx
    .select({ order: orders, user: users, billing: billingDetails })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(billingDetails, eq(billingDetails.userId, users.id))
    .where(eq(orders.id, e.orderId))
    .limit(1);
  if (!row) throw new Error(`no order ${e.orderId} to invoice a change of`);
  const { order, user, billing } = row;
  const snapshot: InvoiceSnapshot = {
    seller: sellerOf(deps.config),
    buyer: buyerOf(user, billing),
    orderPublicId: order.publicId,
    description: `Change to the website: ${e.title} — order ${order.publicId}`,
    currency: e.currency,
    minorDigits: displayCurrency(moneyContext(deps), e.currency).minorDigits,
    listPrice: e.amount,
    price: e.amount,
    discount: 0,
    discountPercent: 0,
    couponCode: null,
    fee: 0,
    total: e.amount,
    installment: {
      kind: "change",
      label: `Change: ${e.title}`,
      amount: e.amount,
    },
    change: { id: e.changeId, title: e.title },
    paidBefore: 0,
    remainingAfter: 0,
    paymentId: e.paymentId,
    paidAt: e.paidAt.toISOString(),
    timeZone: deps.config.INVOICE_TIME_ZONE,
  };
  return insertNumberedInvoice(
    deps,
    tx,
    e.testMode ? "test_invoice" : "invoice",
    {
      orderId: order.id,
      installmentId: e.installmentId,
      userId: user.id,
      providerPaymentId: e.paymentId,
      currency: e.currency,
      amount: e.amount,
      snapshot,
      issuedAt: e.paidAt,
    },
  );
}
