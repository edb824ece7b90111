import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { BillingDetails, BillingDetailsBody, InvoiceSummary } from '../../../contract/invoices.ts';
import { billingDetailsBody } from '../../../contract/invoices.ts';
import type { AppDeps } from '../../deps.ts';
import { billingDetails, invoices } from '../../db/schema/invoices.ts';
import { orders } from '../../db/schema/orders.ts';
import { notFound } from '../../lib/app-error.ts';
import { renderInvoicePdf } from './render-pdf.ts';
import { maintenancePeriodLabel } from '../../../domain/maintenance-plan.ts';

const toSummary = (r: typeof invoices.$inferSelect): InvoiceSummary => ({
  id: r.id,
  number: r.number,
  series: r.series,
  kind: r.docKind,
  installment: r.installmentKind ?? null,
  ...(r.snapshot.charge ? { label: maintenancePeriodLabel(r.snapshot.charge.periodStart, r.snapshot.timeZone ?? 'UTC') } : {}),
  testMode: r.testMode,
  amount: r.amount,
  currency: r.currency,
  issuedAt: r.issuedAt.toISOString(),
  // Older snapshots lack the zone: they were printed in UTC.
  timeZone: r.snapshot.timeZone ?? 'UTC',
});

/** Invoices of one order; `userId` limits it to the customer's own (another's order = not found). */
export async function listOrderInvoices(deps: AppDeps, orderPublicId: string, userId?: string): Promise<InvoiceSummary[]> {
  const [order] = await deps.db
    .select({ id: orders.id, userId: orders.userId, state: orders.state })
    .from(orders)
    .where(eq(orders.publicId, orderPublicId))
    .limit(1);
  if (!order || (userId && (order.userId !== userId || order.state === 'awaiting_advance'))) throw notFound('Order not found.');
  const rows = await deps.db
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, order.id))
    .orderBy(asc(invoices.issuedAt), asc(invoices.sequence));
  return rows.map(toSummary);
}

/** The PDF of one invoice; for a customer only their own (anything else is the same 404). */
export async function invoicePdf(deps: AppDeps, invoiceId: string, userId?: string) {
  const where = userId
    ? and(eq(invoices.id, invoiceId), isNotNull(invoices.userId), eq(invoices.userId, userId))
    : eq(invoices.id, invoiceId);
  const [inv] = await deps.db.select().from(invoices).where(where).limit(1);
  if (!inv) throw notFound('Invoice not found.');
  let correctsNumber: string | null = null;
  if (inv.creditNoteFor) {
    const [orig] = await deps.db.select({ number: invoices.number }).from(invoices).where(eq(invoices.id, inv.creditNoteFor)).limit(1);
    correctsNumber = orig?.number ?? null;
  }
  const pdf = await renderInvoicePdf({
    number: inv.number,
    series: inv.series,
    issuedAt: inv.issuedAt,
    snapshot: inv.snapshot,
    correctsNumber,
    defaultTimeZone: deps.config.INVOICE_TIME_ZONE,
  });
  return { pdf, filename: `${inv.number.replace(/[^A-Za-z0-9-]+/g, '-')}.pdf` };
}

export async function getBillingDetails(deps: AppDeps, userId: string): Promise<BillingDetails> {
  const [row] = await deps.db.select().from(billingDetails).where(eq(billingDetails.userId, userId)).limit(1);
  return {
    billingName: row?.billingName ?? '',
    billingAddress: row?.billingAddress ?? '',
    taxId: row?.taxId ?? '',
    country: row?.country ?? '',
    stateCode: row?.stateCode ?? '',
    gstin: row?.gstin ?? '',
  };
}

/**
 * Saves the billing details printed on the customer's next documents (not on issued ones) and
 * deciding the place of supply of their next quote. A body without `country` (an older client)
 * leaves the stored place of supply as it is.
 */
export async function saveBillingDetails(deps: AppDeps, userId: string, body: BillingDetailsBody): Promise<BillingDetails> {
  const b = billingDetailsBody.parse(body);
  const place =
    b.country !== undefined || b.stateCode || b.gstin
      ? { country: b.country ?? 'IN', stateCode: b.stateCode || null, gstin: b.gstin || null }
      : {};
  const values = {
    billingName: b.billingName || null,
    billingAddress: b.billingAddress || null,
    taxId: b.taxId ? b.taxId.toUpperCase() : null,
    ...place,
    updatedAt: new Date(),
  };
  await deps.db
    .insert(billingDetails)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: billingDetails.userId, set: values });
  return getBillingDetails(deps, userId);
}

/** The invoice PDF as an e-mail attachment (the receipt carries it). */
/**
 * The invoice of one paid installment (never a credit note), once its settlement has committed —
 * what the receipt e-mail carries; null when none was issued.
 */
export async function invoiceOfInstallment(deps: AppDeps, installmentId: string): Promise<{ id: string; number: string } | null> {
  const [row] = await deps.db
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.installmentId, installmentId), isNull(invoices.creditNoteFor)))
    .orderBy(asc(invoices.issuedAt))
    .limit(1);
  return row ?? null;
}

export async function invoiceAttachment(deps: AppDeps, invoiceId: string) {
  const { pdf, filename } = await invoicePdf(deps, invoiceId);
  return { filename, contentType: 'application/pdf', content: pdf };
}
