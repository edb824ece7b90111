import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DocumentKind, InvoiceSnapshot } from '../../../contract/invoices.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orders } from '../../db/schema/orders.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { currencyOf, orderTaxOrNone, taxInside } from '../../lib/tax-context.ts';
import { ISSUING_KINDS, type IssuedInvoice, documentColumns, documentTax, insertNumberedInvoice } from './issue-invoice.ts';

/**
 * The document of money returned to the customer (docs/decisions/221-gst-documents.md,
 * docs/decisions/321-cancel-and-refund.md), in the transaction that records the refund as processed:
 * a refund voucher (CGST rule 51, RF/…) for an advance whose receipt voucher no tax invoice has
 * adjusted yet (the work was not supplied), else a credit note (CN/…) reducing the invoice: the
 * order's invoice for an advance invoiced since, or the payment's own tax invoice (the remaining, a
 * change). The tax inside the amount is taken out at the order's rates. Null when the payment was
 * documented by nothing (a duplicate payment). Once per refund (`reference`, its provider id): a
 * payment refunded in parts has one document per part.
 */
export async function issueRefundDocument(
  deps: AppDeps,
  tx: Tx,
  input: { providerPaymentId: string; amount: number; refundedAt: Date; reference: string },
): Promise<IssuedInvoice | null> {
  const [paid] = await tx
    .select({ doc: invoices, order: orders })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(and(eq(invoices.providerPaymentId, input.providerPaymentId), inArray(invoices.docKind, [...ISSUING_KINDS])))
    .limit(1);
  if (!paid) return null;
  const { doc, order } = paid;
  const [already] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(
      and(
        inArray(invoices.docKind, ['refund_voucher', 'credit_note']),
        eq(invoices.providerPaymentId, input.providerPaymentId),
        sql`${invoices.snapshot}->>'paymentId' = ${input.reference}`,
      ),
    )
    .limit(1);
  if (already) return already;

  // The payment's own document is an invoice (the remaining, a change): the return reduces it.
  // An advance: the order's invoice, if issued since, else nothing was supplied yet.
  const [invoice] =
    doc.docKind === 'tax_invoice' || doc.docKind === 'invoice'
      ? [{ id: doc.id, number: doc.number, issuedAt: doc.issuedAt }]
      : await tx
          .select({ id: invoices.id, number: invoices.number, issuedAt: invoices.issuedAt })
          .from(invoices)
          .innerJoin(installments, eq(installments.id, invoices.installmentId))
          .where(
            and(eq(invoices.orderId, order.id), eq(installments.kind, 'remaining'), inArray(invoices.docKind, ['tax_invoice', 'invoice'])),
          )
          .limit(1);
  const tax = orderTaxOrNone(order.tax, order.total);
  const kind: DocumentKind = invoice ? 'credit_note' : 'refund_voucher';
  const base = invoice ?? { id: doc.id, number: doc.number, issuedAt: doc.issuedAt };
  const currency = currencyOf(moneyContext(deps).currencies, doc.currency);
  const taxed = taxInside(tax, input.amount);
  const document = documentTax(deps, {
    kind,
    tax,
    testMode: doc.testMode,
    currency,
    taxed,
    adjusts: {
      number: base.number,
      issuedAt: base.issuedAt.toISOString(),
      amount: input.amount,
      taxableValue: taxed.taxableValue,
      taxes: taxed.taxes,
    },
    amountPaid: input.amount,
    at: input.refundedAt,
  });
  const snapshot: InvoiceSnapshot = {
    ...doc.snapshot,
    installment: { ...doc.snapshot.installment, amount: input.amount },
    paymentId: input.reference,
    paidAt: input.refundedAt.toISOString(),
    refundOf: { paymentId: input.providerPaymentId, paidAt: doc.snapshot.paidAt, documentNumber: doc.number },
    timeZone: deps.config.INVOICE_TIME_ZONE,
    document,
  };
  const series = doc.testMode ? 'test_invoice' : invoice ? 'credit_note' : 'refund_voucher';
  return insertNumberedInvoice(deps, tx, series, {
    orderId: order.id,
    installmentId: doc.installmentId,
    userId: doc.userId,
    installmentKind: doc.installmentKind,
    providerPaymentId: input.providerPaymentId,
    creditNoteFor: invoice ? invoice.id : null,
    currency: doc.currency,
    amount: input.amount,
    snapshot,
    issuedAt: input.refundedAt,
    ...documentColumns(document),
    adjustsInvoiceId: base.id,
  });
}
