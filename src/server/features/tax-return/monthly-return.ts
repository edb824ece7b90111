import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { TaxReturnResponse } from '../../../contract/tax-return.ts';
import { monthlyReturn, type ReturnDocument, type ReturnTable } from '../../../domain/gst-return.ts';
import { financialYear } from '../../../domain/invoice-number.ts';
import type { AppDeps } from '../../deps.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { currencyOf, inrValueOf } from '../../lib/tax-context.ts';

// Loads the documents the return is computed from (docs/decisions/245-gstr1-monthly-return.md).
// Test-mode documents moved no money and are never in a return. A small agency issues a few
// hundred documents a year, so the month's return reads every document up to the month's end:
// the advance tables need the earlier months' receipt vouchers.

const DAY_MS = 86_400_000;

/** The calendar day of `at` where the seller is (INVOICE_TIME_ZONE), as YYYY-MM-DD. */
function localDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** UTC instants safely around a month: a day either side, then the local date decides. */
function monthWindow(period: string): { from: Date; to: Date } {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1) - DAY_MS), to: new Date(Date.UTC(y, m, 1) + DAY_MS) };
}

type InvoiceRow = typeof invoices.$inferSelect;

function toPaise(deps: AppDeps, row: InvoiceRow) {
  if (row.currency === 'INR') return (minor: number) => minor;
  const rate = row.snapshot.document?.inr?.rate;
  const currency = currencyOf(moneyContext(deps).currencies, row.currency);
  return (minor: number) => (rate ? inrValueOf(minor, currency, rate) : 0);
}

function returnDocument(deps: AppDeps, row: InvoiceRow): ReturnDocument | null {
  const d = row.snapshot.document;
  if (!d || d.regime !== 'gst' || d.supplyType === 'none') return null;
  if (
    row.docKind !== 'receipt_voucher' &&
    row.docKind !== 'tax_invoice' &&
    row.docKind !== 'refund_voucher' &&
    row.docKind !== 'credit_note'
  )
    return null;
  const paise = toPaise(deps, row);
  const taxes = d.taxes.map((t) => ({ kind: t.kind, rate: t.rate, amount: paise(t.amount) }));
  const taxableValue = paise(d.taxableValue);
  return {
    id: row.id,
    number: row.number,
    kind: row.docKind,
    date: localDay(row.issuedAt, deps.config.INVOICE_TIME_ZONE),
    cancelled: row.cancelledAt !== null,
    buyerName: row.snapshot.buyer.name,
    buyerGstin: d.buyer.gstin,
    supplyType: d.supplyType,
    placeOfSupply: d.placeOfSupply,
    sac: d.sac,
    taxableValue,
    taxes,
    // The value as printed in INR when the document carries one; else the sum, so a row always adds up.
    value: d.inr ? d.inr.value : taxableValue + taxes.reduce((s, t) => s + t.amount, 0),
    refersTo: row.docKind === 'credit_note' ? row.creditNoteFor : row.adjustsInvoiceId,
    underLut: !!d.export?.lutArn,
  };
}

/** Every document issued while the business was not registered: the month's list and the year's turnover. */
async function unregisteredReturn(deps: AppDeps, period: string): Promise<Omit<TaxReturnResponse, 'testDocuments' | 'liveDocuments'>> {
  const tz = deps.config.INVOICE_TIME_ZONE;
  const { to } = monthWindow(period);
  const fy = financialYear(new Date(`${period}-15T00:00:00Z`), { startMonth: deps.config.INVOICE_FY_START_MONTH, timeZone: tz });
  const rows = await deps.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.testMode, false), eq(invoices.financialYear, fy), lt(invoices.issuedAt, to)));
  const signed = (row: InvoiceRow) => {
    const paise = row.inrValue ?? (row.currency === 'INR' ? row.amount : toPaise(deps, row)(row.amount));
    return row.docKind === 'credit_note' || row.docKind === 'refund_voucher' ? -paise : paise;
  };
  const upToMonth = rows.filter((r) => localDay(r.issuedAt, tz).slice(0, 7) <= period && r.cancelledAt === null);
  const month = rows
    .filter((r) => localDay(r.issuedAt, tz).slice(0, 7) === period)
    .sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime());
  const documents: ReturnTable = {
    rows: month.map((r) => ({
      number: r.number,
      kind: r.docKind,
      date: localDay(r.issuedAt, tz),
      buyer: r.snapshot.buyer.name,
      currency: r.currency,
      amount: r.amount,
      inrValue: signed(r),
      cancelled: r.cancelledAt ? 'yes' : 'no',
    })),
    totals: { count: month.length, inrValue: month.filter((r) => r.cancelledAt === null).reduce((s, r) => s + signed(r), 0) },
  };
  const turnover = upToMonth.reduce((s, r) => s + signed(r), 0);
  const threshold = deps.config.GST_REGISTRATION_THRESHOLD * 100;
  const turnoverTable: ReturnTable = {
    rows: [{ financialYear: fy, upTo: period, turnover, threshold, percent: Math.floor((turnover * 100) / threshold) }],
    totals: { turnover, threshold },
  };
  return { period, regime: 'none', tables: { documents, turnover: turnoverTable }, reconciled: true, checks: [] };
}

/** The month's documents (in INVOICE_TIME_ZONE) by test mode: what the return leaves out, and whether it has anything. */
async function documentCounts(deps: AppDeps, period: string): Promise<{ testDocuments: number; liveDocuments: number }> {
  const { from, to } = monthWindow(period);
  const rows = await deps.db
    .select({ issuedAt: invoices.issuedAt, testMode: invoices.testMode })
    .from(invoices)
    .where(and(gte(invoices.issuedAt, from), lt(invoices.issuedAt, to)));
  const month = rows.filter((r) => localDay(r.issuedAt, deps.config.INVOICE_TIME_ZONE).slice(0, 7) === period);
  return { testDocuments: month.filter((r) => r.testMode).length, liveDocuments: month.filter((r) => !r.testMode).length };
}

export async function taxReturn(deps: AppDeps, period: string): Promise<TaxReturnResponse> {
  const counts = await documentCounts(deps, period);
  return { ...(await returnOf(deps, period)), ...counts };
}

async function returnOf(deps: AppDeps, period: string): Promise<Omit<TaxReturnResponse, 'testDocuments' | 'liveDocuments'>> {
  if (deps.config.TAX_REGIME !== 'gst') return unregisteredReturn(deps, period);
  const { to } = monthWindow(period);
  const rows = await deps.db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.testMode, false),
        eq(invoices.taxRegime, 'gst'),
        inArray(invoices.docKind, ['receipt_voucher', 'tax_invoice', 'refund_voucher', 'credit_note']),
        lt(invoices.issuedAt, to),
        gte(invoices.issuedAt, new Date(0)),
      ),
    );
  const history = rows.map((r) => returnDocument(deps, r)).filter((d): d is ReturnDocument => d !== null && d.date.slice(0, 7) <= period);
  const r = monthlyReturn(period, history);
  return { period, regime: 'gst', tables: r.tables, reconciled: r.reconciled, checks: r.checks };
}
