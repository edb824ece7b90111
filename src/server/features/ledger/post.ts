import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { orderLedger } from '../../db/schema/ledger.ts';
import { orders } from '../../db/schema/orders.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { currencyOf, inrRate, inrValueOf } from '../../lib/tax-context.ts';
import { type LineInput, difference, orderChargeLines, totalsOf } from './lines.ts';
import { PRICE_LABEL } from '../../../domain/price-lines.ts';

// Writing the order's account (docs/decisions/320-order-ledger.md). Always inside the transaction
// of the change that causes the lines; lines are only ever added.

export interface Posting {
  orderId: string;
  /** What writes the lines ('order', 'payment:<id>', 'change:<id>', 'maintenance:<id>', 'refund:<id>', 'cancel'). */
  source: string;
  at: Date;
  currency: string;
  testMode?: boolean;
  /** The document the lines belong to. */
  document?: { id: string; number: string; inrRate?: number | null } | null;
  providerRef?: string | null;
}

/**
 * Adds `lines` under `posting.source`. A source whose lines are already there adds nothing (a
 * retried webhook, a second subscriber call); `append` adds after them instead (corrections).
 */
export async function postLines(
  deps: Pick<AppDeps, 'config'>,
  tx: Tx,
  posting: Posting,
  lines: LineInput[],
  append = false,
): Promise<void> {
  if (lines.length === 0) return;
  let first = 0;
  if (append) {
    const [row] = await tx
      .select({ next: sql<number>`coalesce(max(${orderLedger.lineNo}) + 1, 0)::int` })
      .from(orderLedger)
      .where(and(eq(orderLedger.orderId, posting.orderId), eq(orderLedger.source, posting.source)));
    first = Number(row?.next ?? 0);
  }
  const currency = currencyOf(moneyContext(deps as AppDeps).currencies, posting.currency);
  // The INR value at the document's rate (or the currency table's for a line of no document).
  const rate = currency.code === 'INR' ? null : (posting.document?.inrRate ?? inrRate(moneyContext(deps as AppDeps).currencies, currency));
  await tx
    .insert(orderLedger)
    .values(
      lines.map((l, i) => ({
        orderId: posting.orderId,
        at: posting.at,
        kind: l.kind,
        description: l.description,
        invoiceId: posting.document?.id ?? null,
        documentNumber: posting.document?.number ?? null,
        amount: l.amount,
        currency: posting.currency,
        inrAmount: rate === null ? null : inrValueOf(l.amount, currency, rate),
        taxKind: l.taxKind ?? null,
        source: posting.source,
        lineNo: first + i,
        providerRef: l.kind === 'payment' || l.kind === 'refund' ? (posting.providerRef ?? null) : null,
        testMode: posting.testMode ?? false,
      })),
    )
    .onConflictDoNothing();
}

/** The order's lines in the order they were written. */
export async function linesOf(tx: Pick<Tx, 'select'>, orderId: string) {
  return tx.select().from(orderLedger).where(eq(orderLedger.orderId, orderId)).orderBy(asc(orderLedger.seq));
}

/**
 * Brings the order's own charge lines (source 'order') to its quote: the first time, all of them;
 * after a re-pricing (a code withdrawn at the advance), the differences. Takes the order row's lock,
 * so two settlements of one order post once.
 */
export async function syncOrderCharges(
  deps: Pick<AppDeps, 'config'>,
  tx: Tx,
  orderId: string,
  at: Date,
  description: string,
): Promise<void> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update').limit(1);
  if (!order) return;
  const posted = (await linesOf(tx, orderId)).filter((l) => l.source === 'order');
  // Lines posted before the discount was named by its code's kind ("Discount (code X, 10%)", decision 333)
  // keep their words, so a later sync does not post a reversal and the same line renamed.
  const legacyDiscount = posted.find((l) => l.kind === 'discount' && l.description.startsWith('Discount ('))?.description;
  const wanted = orderChargeLines(order, posted.find((l) => l.lineNo === 0)?.description ?? description).map((l) =>
    legacyDiscount && l.kind === 'discount' && l.description !== PRICE_LABEL.offerReduction ? { ...l, description: legacyDiscount } : l,
  );
  const lines = difference(
    wanted,
    posted.map((l) => ({ kind: l.kind, description: l.description, amount: l.amount, taxKind: l.taxKind })),
  );
  await postLines(deps, tx, { orderId, source: 'order', at, currency: order.currency }, lines, true);
}

/** The order's balance now (inside the caller's transaction). */
export async function balanceOf(tx: Tx, orderId: string): Promise<number> {
  return totalsOf(await linesOf(tx, orderId)).balanceDue;
}

/** A document's figures as the ledger needs them: its number, tax part and INR rate. */
export async function documentOf(tx: Tx, invoiceId: string) {
  const [doc] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
  if (!doc) throw new Error(`no document ${invoiceId} to post`);
  const d = doc.snapshot.document;
  return {
    id: doc.id,
    number: doc.number,
    kind: doc.docKind,
    testMode: doc.testMode,
    description: doc.snapshot.description,
    inrRate: d?.inr?.rate ?? null,
    taxableValue: d ? d.taxableValue : (doc.taxableValue ?? doc.amount - doc.taxAmount),
    taxes: d?.taxes ?? [],
  };
}
