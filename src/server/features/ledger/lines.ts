import type { OrderTax } from '../../../contract/pricing.ts';
import type { LedgerKind } from '../../../contract/statement.ts';
import { type OrderPriceRow, orderPriceFigures, priceLines, taxLabel } from '../../../domain/price-lines.ts';

// What the order's account is made of (docs/decisions/320-order-ledger.md): the lines each kind of
// event adds, and the totals every screen shows. The only place in the code base where amounts of
// money are added up (src/server/architecture.test.ts looks for sums anywhere else).

export interface LineInput {
  kind: LedgerKind;
  description: string;
  /** Signed minor units: charges and tax positive, discounts, payments and credit notes negative, refunds positive. */
  amount: number;
  taxKind?: 'CGST' | 'SGST' | 'IGST' | null;
}

export interface Totals {
  /** What the order costs: charges, discounts and tax (tax included). */
  charged: number;
  tax: number;
  paid: number;
  refunded: number;
  /** Credit notes and write-offs: what is no longer owed without money moving. */
  credited: number;
  /** charged − paid + refunded − credited: what the customer still owes (negative: owed to them). */
  balanceDue: number;
}

/** The totals of a list of lines (the statement's, and the oracle of every screen's figures). */
export function totalsOf(lines: readonly { kind: LedgerKind; amount: number }[]): Totals {
  const t: Totals = { charged: 0, tax: 0, paid: 0, refunded: 0, credited: 0, balanceDue: 0 };
  for (const l of lines) {
    if (l.kind === 'charge' || l.kind === 'discount' || l.kind === 'tax') t.charged += l.amount;
    if (l.kind === 'tax') t.tax += l.amount;
    if (l.kind === 'payment') t.paid -= l.amount;
    if (l.kind === 'refund') t.refunded += l.amount;
    if (l.kind === 'credit_note') t.credited -= l.amount;
  }
  t.balanceDue = t.charged - t.paid + t.refunded - t.credited;
  return t;
}

/**
 * The same totals in SQL, for the reads that show many orders in one statement (lists): a lateral
 * subquery over `order_ledger` for the order named by `orderIdSql`, giving `charged` and
 * `balance_due`. Its rule is totalsOf's; ledger.test.ts checks they agree on random lines.
 */
export function ledgerTotalsSql(orderIdSql: string): string {
  return `(select coalesce(sum(l.amount) filter (where l.kind in ('charge', 'discount', 'tax')), 0)::float8 as charged,
                  coalesce(sum(l.amount), 0)::float8 as balance_due
             from order_ledger l where l.order_id = ${orderIdSql})`;
}

/** Minor units received and refunded, for reads of money moved (the overview): one sum per group. */
export const movedSumSql = (kind: 'payment' | 'refund', column = 'amount') =>
  kind === 'payment'
    ? `coalesce(-sum(${column}) filter (where kind = 'payment'), 0)::float8`
    : `coalesce(sum(${column}) filter (where kind = 'refund'), 0)::float8`;

export interface OrderPrice extends OrderPriceRow {
  tax: OrderTax | null;
}

/**
 * The order's own charge lines, from its quote: the lines of the one description of its price
 * (src/domain/price-lines.ts) that post — the list price, the offer's reduction, the code's
 * discount, the platform fee and the tax lines; with prices that include tax, one line takes the
 * tax out of the prices so that the charges still add up to the total.
 */
export function orderChargeLines(o: OrderPrice, description: string): LineInput[] {
  return priceLines(orderPriceFigures(o, description)).flatMap((l) =>
    l.posts ? [{ kind: l.posts, description: l.label, amount: l.amount, ...(l.taxKind ? { taxKind: l.taxKind } : {}) }] : [],
  );
}

/** A one-off supply documented by its own invoice (a change, a maintenance month): its value and tax lines. */
export function suppliedLines(
  description: string,
  doc: { taxableValue: number; taxes: { kind: 'CGST' | 'SGST' | 'IGST'; rate: number; amount: number }[] },
): LineInput[] {
  return [
    { kind: 'charge', description, amount: doc.taxableValue },
    ...doc.taxes.map((t) => ({ kind: 'tax' as const, description: taxLabel(t), amount: t.amount, taxKind: t.kind })),
  ];
}

/**
 * Lines to post so that what was posted becomes what is wanted: the difference per line (kind,
 * description and tax kind), so a re-priced order (a code withdrawn at the advance) is corrected
 * by new lines, never by changing old ones.
 */
export function difference(wanted: readonly LineInput[], posted: readonly LineInput[]): LineInput[] {
  const key = (l: LineInput) => `${l.kind}\u0000${l.description}\u0000${l.taxKind ?? ''}`;
  const delta = new Map<string, LineInput>();
  for (const l of wanted) delta.set(key(l), { ...l, amount: (delta.get(key(l))?.amount ?? 0) + l.amount });
  for (const l of posted) delta.set(key(l), { ...l, amount: (delta.get(key(l))?.amount ?? 0) - l.amount });
  return [...delta.values()].filter((l) => l.amount !== 0);
}
