import { and, eq, inArray, sql } from 'drizzle-orm';
import type { InvoiceSeries, InvoiceSnapshot } from '../../../contract/invoices.ts';
import { TEST_INVOICE_NUMBER_FORMAT, financialYear, formatInvoiceNumber } from '../../../domain/invoice-number.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { billingDetails, invoiceCounters, invoices } from '../../db/schema/invoices.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { isTestMode } from '../../integrations/payments/provider.ts';

export interface IssuedInvoice {
  id: string;
  number: string;
}

const LABEL = {
  advance: 'Advance payment (20%)',
  remaining: 'Remaining payment (80%)',
} as const;

/** The seller printed on every invoice: configuration, never code. */
export function sellerOf(config: AppDeps['config']): InvoiceSnapshot['seller'] {
  return {
    legalName: config.SELLER_LEGAL_NAME ?? config.BRAND_NAME,
    address: config.SELLER_ADDRESS ?? config.BRAND_ADDRESS,
    taxId: config.SELLER_TAX_ID ?? null,
    email: config.BRAND_EMAIL,
  };
}

/** The buyer printed on an invoice: the billing details given, else the account's name and address. */
export function buyerOf(
  user: { name: string | null; email: string; address: string | null },
  billing: { billingName: string | null; billingAddress: string | null; taxId: string | null } | null,
): InvoiceSnapshot['buyer'] {
  return {
    name: billing?.billingName || user.name || user.email,
    email: user.email,
    address: billing?.billingAddress || user.address || null,
    taxId: billing?.taxId || null,
  };
}

/**
 * Takes the next number of a series for the financial year of `at`. The upsert row-locks the
 * counter until the caller's transaction ends: a concurrent issuer waits, and a rollback gives
 * the number back — so numbers have no gaps and no duplicates.
 */
export async function nextNumber(deps: AppDeps, tx: Tx, series: InvoiceSeries, at: Date) {
  const fy = financialYear(at, {
    startMonth: deps.config.INVOICE_FY_START_MONTH,
    timeZone: deps.config.INVOICE_TIME_ZONE,
  });
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ series, financialYear: fy, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.series, invoiceCounters.financialYear],
      set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
    })
    .returning({ n: invoiceCounters.lastNumber });
  const format = {
    invoice: deps.config.INVOICE_NUMBER_FORMAT,
    credit_note: deps.config.CREDIT_NOTE_NUMBER_FORMAT,
    test_invoice: TEST_INVOICE_NUMBER_FORMAT,
  }[series];
  return {
    financialYear: fy,
    sequence: row!.n,
    number: formatInvoiceNumber(format, fy, row!.n),
  };
}

/**
 * Whether the payment being invoiced moved no money (decision 120): the attempt it was captured on
 * records the mode of the key it was opened with. An attempt that cannot be found (not expected:
 * the settlement marks it paid first) is judged by the provider configured now.
 */
async function wasTestPayment(deps: AppDeps, tx: Tx, input: { installmentId: string; paymentId: string }): Promise<boolean> {
  const [attempt] = await tx
    .select({ testMode: paymentAttempts.testMode })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.installmentId, input.installmentId), eq(paymentAttempts.providerPaymentId, input.paymentId)))
    .limit(1);
  return attempt ? attempt.testMode : isTestMode(moneyContext(deps).provider);
}

/**
 * Issues the invoice of one captured installment inside the settling transaction (the caller
 * holds the installment's row lock). Idempotent: a second call for the same installment returns
 * the first invoice.
 */
export async function issueInvoice(deps: AppDeps, tx: Tx, input: { installmentId: string; paymentId: string; paidAt: Date }): Promise<IssuedInvoice> {
  const [existing] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.installmentId, input.installmentId), inArray(invoices.series, ['invoice', 'test_invoice'])))
    .limit(1);
  if (existing) return existing;
  const series = (await wasTestPayment(deps, tx, input)) ? 'test_invoice' : 'invoice';

  const [row] = await tx
    .select({
      installment: installments,
      order: orders,
      user: users,
      billing: billingDetails,
    })
    .from(installments)
    .innerJoin(orders, eq(orders.id, installments.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(billingDetails, eq(billingDetails.userId, users.id))
    .where(eq(installments.id, input.installmentId))
    .limit(1);
  if (!row) throw new Error(`no installment ${input.installmentId} to invoice`);
  const { installment, order, user, billing } = row;
  const all = await tx
    .select({
      id: installments.id,
      amount: installments.amount,
      state: installments.state,
    })
    .from(installments)
    .where(eq(installments.orderId, order.id));
  const others = all.filter((i) => i.id !== installment.id);
  const paidBefore = others.filter((i) => i.state === 'paid').reduce((s, i) => s + i.amount, 0);
  const remainingAfter = others.filter((i) => i.state !== 'paid').reduce((s, i) => s + i.amount, 0);
  const currency = displayCurrency(moneyContext(deps), order.currency);

  const snapshot: InvoiceSnapshot = {
    seller: sellerOf(deps.config),
    buyer: buyerOf(user, billing),
    orderPublicId: order.publicId,
    description: `Custom website — order ${order.publicId}`,
    currency: order.currency,
    minorDigits: currency.minorDigits,
    listPrice: order.listPrice,
    price: order.price,
    discount: order.discount,
    discountPercent: order.discountPercent,
    couponCode: order.couponCode,
    fee: order.fee,
    total: order.total,
    installment: {
      kind: installment.kind,
      label: LABEL[installment.kind],
      amount: installment.amount,
    },
    paidBefore,
    remainingAfter,
    paymentId: input.paymentId,
    paidAt: input.paidAt.toISOString(),
    timeZone: deps.config.INVOICE_TIME_ZONE,
  };
  return insertNumberedInvoice(deps, tx, series, {
    orderId: order.id,
    installmentId: installment.id,
    userId: user.id,
    installmentKind: installment.kind,
    providerPaymentId: input.paymentId,
    currency: order.currency,
    amount: installment.amount,
    snapshot,
    issuedAt: input.paidAt,
  });
}

/** Takes the next number of `series` for the invoice's date and stores the invoice with it (the caller's transaction). */
export async function insertNumberedInvoice(
  deps: AppDeps,
  tx: Tx,
  series: InvoiceSeries,
  row: Omit<typeof invoices.$inferInsert, 'series' | 'number' | 'financialYear' | 'sequence'> & { issuedAt: Date },
): Promise<IssuedInvoice> {
  const n = await nextNumber(deps, tx, series, row.issuedAt);
  const [inv] = await tx
    .insert(invoices)
    .values({ series, number: n.number, financialYear: n.financialYear, sequence: n.sequence, ...row })
    .returning({ id: invoices.id, number: invoices.number });
  return inv!;
}
