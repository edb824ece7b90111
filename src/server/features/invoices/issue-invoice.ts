import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DocumentKind, DocumentTax, InvoiceSeries, InvoiceSnapshot } from '../../../contract/invoices.ts';
import type { OrderTax } from '../../../contract/pricing.ts';
import {
  RECEIPT_VOUCHER_NUMBER_FORMAT,
  REFUND_VOUCHER_NUMBER_FORMAT,
  TEST_INVOICE_NUMBER_FORMAT,
  financialYear,
  formatInvoiceNumber,
} from '../../../domain/invoice-number.ts';
import { findCountryByCode } from '../../../domain/countries.ts';
import { amountInWords, stateByCode } from '../../../domain/gst.ts';
import { orderPriceFigures, orderSupply, priceLines } from '../../../domain/price-lines.ts';
import type { Currency } from '../../../domain/money.ts';
import { currencyOf, inrRate, inrValueOf, orderTaxOrNone, taxInside } from '../../lib/tax-context.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { billingDetails, invoiceCounters, invoices } from '../../db/schema/invoices.ts';
import { moneyContext } from '../../lib/money-context.ts';
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
    // Registered: the GSTIN is the tax id rule 46 asks for.
    taxId: (config.TAX_REGIME === 'gst' ? config.SELLER_GSTIN : undefined) ?? config.SELLER_TAX_ID ?? null,
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
    receipt_voucher: RECEIPT_VOUCHER_NUMBER_FORMAT,
    refund_voucher: REFUND_VOUCHER_NUMBER_FORMAT,
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

/** The kinds that document a payment received (one per installment or charge). */
export const ISSUING_KINDS = ['receipt_voucher', 'tax_invoice', 'invoice', 'receipt'] as const;

/** The title-free tax part of a document (docs/decisions/221-gst-documents.md). */
export function documentTax(
  deps: AppDeps,
  input: {
    kind: DocumentKind;
    tax: OrderTax;
    testMode: boolean;
    currency: Currency;
    taxed: { taxableValue: number; taxes: DocumentTax['taxes']; total: number };
    adjusts: DocumentTax['adjusts'];
    amountPaid: number;
    at: Date;
  },
): DocumentTax {
  const c = deps.config;
  const t = input.tax;
  const gst = t.regime === 'gst';
  const sellerState = gst ? stateByCode(t.sellerStateCode) : undefined;
  const rate = input.currency.code === 'INR' ? null : inrRate(moneyContext(deps).currencies, input.currency);
  return {
    kind: input.kind,
    regime: t.regime,
    testMode: input.testMode,
    sac: c.GST_SAC,
    supplyType: t.supplyType,
    placeOfSupply: t.placeOfSupply,
    seller: { gstin: gst ? (c.SELLER_GSTIN ?? null) : null, stateCode: sellerState?.code ?? null, stateName: sellerState?.name ?? null },
    buyer: {
      country: t.buyer.country,
      countryName: findCountryByCode(t.buyer.country)?.name ?? t.buyer.country,
      stateCode: t.buyer.stateCode,
      gstin: t.buyer.gstin,
    },
    taxableValue: input.taxed.taxableValue,
    taxes: input.taxed.taxes,
    value: input.taxed.total,
    adjusts: input.adjusts,
    amountPaid: input.amountPaid,
    amountInWords: amountInWords(input.amountPaid, input.currency.code, input.currency.minorDigits),
    reverseCharge: false,
    export:
      gst && t.supplyType === 'export'
        ? { lutArn: t.lutValid ? (c.GST_LUT_ARN ?? null) : null, lutValidUntil: t.lutValid ? (c.GST_LUT_VALID_UNTIL ?? null) : null }
        : null,
    inr:
      rate === null
        ? null
        : { rate, rateDate: input.at.toISOString().slice(0, 10), value: inrValueOf(input.taxed.total, input.currency, rate) },
  };
}

/** The columns of a document the monthly return selects on (migration 0920), from its DocumentTax. */
export function documentColumns(d: DocumentTax) {
  return {
    docKind: d.kind,
    taxRegime: d.regime,
    supplyType: d.supplyType,
    placeOfSupplyCode: d.placeOfSupply.code || null,
    buyerGstin: d.buyer.gstin,
    taxableValue: d.taxableValue,
    taxAmount: d.taxes.reduce((s, x) => s + x.amount, 0),
    inrValue: d.inr?.value ?? null,
    testMode: d.testMode,
  };
}

/**
 * Issues the document of one captured installment inside the settling transaction (the caller
 * holds the installment's row lock): the advance gets a receipt voucher (rule 50; "RECEIPT" when
 * not registered) with the tax inside it, the remaining payment the tax invoice of the whole supply
 * less the advance (rule 46; "INVOICE" when not registered). Idempotent: a second call for the same
 * installment returns the first document.
 */
export async function issueInvoice(
  deps: AppDeps,
  tx: Tx,
  input: { installmentId: string; paymentId: string; paidAt: Date },
): Promise<IssuedInvoice> {
  const [existing] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.installmentId, input.installmentId), inArray(invoices.docKind, [...ISSUING_KINDS])))
    .limit(1);
  if (existing) return existing;
  const testMode = await wasTestPayment(deps, tx, input);

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
  // A change's installment has its own document (issue-change-invoice.ts), never this one.
  if (installment.kind === 'change') throw new Error(`installment ${installment.id} pays a change: issueChangeInvoice`);
  const installmentKind = installment.kind;
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
  const currency = currencyOf(moneyContext(deps).currencies, order.currency);
  const tax = orderTaxOrNone(order.tax, order.total);
  const gst = tax.regime === 'gst';
  const isAdvance = installment.kind === 'advance';
  const kind: DocumentKind = isAdvance ? (gst ? 'receipt_voucher' : 'receipt') : gst ? 'tax_invoice' : 'invoice';

  // The remaining payment's document adjusts the advance's (found by the order's advance installment).
  let adjusts: DocumentTax['adjusts'] = null;
  let adjustsInvoiceId: string | null = null;
  if (!isAdvance) {
    const [rv] = await tx
      .select({
        id: invoices.id,
        number: invoices.number,
        issuedAt: invoices.issuedAt,
        amount: invoices.amount,
        snapshot: invoices.snapshot,
      })
      .from(invoices)
      .innerJoin(installments, eq(installments.id, invoices.installmentId))
      .where(and(eq(installments.orderId, order.id), eq(installments.kind, 'advance'), inArray(invoices.docKind, [...ISSUING_KINDS])))
      .limit(1);
    if (rv) {
      adjustsInvoiceId = rv.id;
      const d = rv.snapshot.document;
      adjusts = {
        number: rv.number,
        issuedAt: rv.issuedAt.toISOString(),
        amount: rv.amount,
        taxableValue: d?.taxableValue ?? rv.amount,
        taxes: d?.taxes ?? [],
      };
    }
  }
  const taxed = isAdvance ? taxInside(tax, installment.amount) : { taxableValue: tax.taxableValue, taxes: tax.taxes, total: order.total };
  const document = documentTax(deps, { kind, tax, testMode, currency, taxed, adjusts, amountPaid: installment.amount, at: input.paidAt });

  const snapshot: InvoiceSnapshot = {
    seller: sellerOf(deps.config),
    buyer: buyerOf(user, billing),
    orderPublicId: order.publicId,
    description: orderSupply(order.publicId),
    currency: order.currency,
    minorDigits: currency.minorDigits,
    listPrice: order.listPrice,
    price: order.price,
    discount: order.discount,
    discountPercent: order.discountPercent,
    couponCode: order.couponCode,
    fee: order.fee,
    total: order.total,
    lines: priceLines(orderPriceFigures({ ...order, tax }, orderSupply(order.publicId))),
    installment: {
      kind: installmentKind,
      label: LABEL[installmentKind],
      amount: installment.amount,
    },
    paidBefore,
    remainingAfter,
    paymentId: input.paymentId,
    paidAt: input.paidAt.toISOString(),
    timeZone: deps.config.INVOICE_TIME_ZONE,
    document,
  };
  const series: InvoiceSeries = testMode ? 'test_invoice' : isAdvance ? 'receipt_voucher' : 'invoice';
  return insertNumberedInvoice(deps, tx, series, {
    orderId: order.id,
    installmentId: installment.id,
    userId: user.id,
    installmentKind,
    providerPaymentId: input.paymentId,
    currency: order.currency,
    amount: installment.amount,
    snapshot,
    issuedAt: input.paidAt,
    ...documentColumns(document),
    adjustsInvoiceId,
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
