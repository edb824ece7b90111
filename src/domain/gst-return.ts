// The monthly return of outward supplies (GSTR-1, CGST Rules rule 59) computed from the documents
// the settlements issued, never re-typed (docs/decisions/245-gstr1-monthly-return.md). Pure: the
// server loads the documents, this module sorts them into the return's tables, and the CSV layout
// is the GST offline tool's templates. Amounts are paise (integers); the CSV prints rupees.

export type ReturnTableName = 'b2b' | 'b2cl' | 'b2cs' | 'exp' | 'at' | 'atadj' | 'cdnr' | 'cdnur' | 'hsn' | 'docs';
export const RETURN_TABLES: readonly ReturnTableName[] = ['b2b', 'b2cl', 'b2cs', 'exp', 'at', 'atadj', 'cdnr', 'cdnur', 'hsn', 'docs'];
/** TAX_REGIME=none: no return to file; the page lists the month's documents and the year's turnover. */
export const UNREGISTERED_TABLES = ['documents', 'turnover'] as const;

/** Rule 59(4)(a)(ii): inter-State supplies to unregistered persons above one lakh rupees are reported invoice by invoice (from 1 August 2024). */
export const B2CL_THRESHOLD_PAISE = 1_00_000_00;

export interface ReturnTax {
  kind: 'CGST' | 'SGST' | 'IGST';
  rate: number;
  /** Paise. */
  amount: number;
}

/** One issued document as the return sees it: its figures already in paise. */
export interface ReturnDocument {
  id: string;
  number: string;
  kind: 'receipt_voucher' | 'tax_invoice' | 'refund_voucher' | 'credit_note';
  /** YYYY-MM-DD in the seller's time zone. */
  date: string;
  cancelled: boolean;
  buyerName: string;
  buyerGstin: string | null;
  supplyType: 'intra' | 'inter' | 'export';
  placeOfSupply: { code: string; name: string };
  sac: string;
  /** Paise: the value the document taxes, its taxes, and the two together. */
  taxableValue: number;
  taxes: ReturnTax[];
  value: number;
  /** A tax invoice: the receipt voucher it adjusts; a refund voucher: the one it refunds; a credit note: the invoice it reduces. */
  refersTo: string | null;
  /** An export under a valid LUT (zero-rated without IGST). */
  underLut: boolean;
}

export interface ReturnTable {
  rows: Record<string, string | number | null>[];
  totals: Record<string, number>;
}

export interface ReturnCheck {
  name: string;
  expected: number;
  actual: number;
  ok: boolean;
}

export interface MonthlyReturn {
  tables: Record<ReturnTableName, ReturnTable>;
  checks: ReturnCheck[];
  reconciled: boolean;
}

const rateOf = (taxes: ReturnTax[]) => Math.round(taxes.reduce((s, t) => s + t.rate, 0) * 100) / 100;
const taxSum = (taxes: ReturnTax[], kind?: ReturnTax['kind']) =>
  taxes.filter((t) => !kind || t.kind === kind).reduce((s, t) => s + t.amount, 0);
const pos = (d: Pick<ReturnDocument, 'placeOfSupply'>) => `${d.placeOfSupply.code}-${d.placeOfSupply.name}`;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The offline tool's date: 05-Nov-2026. */
export const returnDate = (isoDay: string) => `${isoDay.slice(8, 10)}-${MONTHS[Number(isoDay.slice(5, 7)) - 1]}-${isoDay.slice(0, 4)}`;

/** Which table a tax invoice (or the invoice a credit note reduces) belongs to. */
function invoiceTable(d: Pick<ReturnDocument, 'buyerGstin' | 'supplyType' | 'value'>): 'b2b' | 'b2cl' | 'b2cs' | 'exp' {
  if (d.supplyType === 'export') return 'exp';
  if (d.buyerGstin) return 'b2b';
  return d.supplyType === 'inter' && d.value > B2CL_THRESHOLD_PAISE ? 'b2cl' : 'b2cs';
}

function sumRows(rows: ReturnTable['rows'], keys: string[]): Record<string, number> {
  const totals: Record<string, number> = { count: rows.length };
  for (const k of keys) totals[k] = rows.reduce((s, r) => s + (typeof r[k] === 'number' ? (r[k] as number) : 0), 0);
  return totals;
}

/** Groups rows by a key and adds their money columns (b2cs, at, atadj, hsn are consolidated, not per document). */
function consolidate<T extends Record<string, string | number | null>>(
  rows: T[],
  keyOf: (r: T) => string,
  money: (keyof T & string)[],
): T[] {
  const out = new Map<string, T>();
  for (const r of rows) {
    const key = keyOf(r);
    const have = out.get(key);
    if (!have) out.set(key, { ...r });
    else for (const m of money) (have as Record<string, unknown>)[m] = (have[m] as number) + (r[m] as number);
  }
  return [...out.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
}

/**
 * The return for one month. `history` is every document issued up to the month's end (earlier
 * months included): the advance tables need to know whether an advance was invoiced or refunded,
 * and when. Cancelled documents count only in `docs`.
 */
export function monthlyReturn(month: string, history: readonly ReturnDocument[]): MonthlyReturn {
  const inMonth = (d: ReturnDocument) => d.date.slice(0, 7) === month;
  const live = history.filter((d) => !d.cancelled);
  const byId = new Map(history.map((d) => [d.id, d]));
  const docs = live.filter(inMonth);
  const invoices = docs.filter((d) => d.kind === 'tax_invoice');
  const notes = docs.filter((d) => d.kind === 'credit_note');

  const b2b = invoices
    .filter((d) => invoiceTable(d) === 'b2b')
    .map((d) => ({
      gstin: d.buyerGstin,
      receiverName: d.buyerName,
      invoiceNumber: d.number,
      invoiceDate: d.date,
      invoiceValue: d.value,
      placeOfSupply: pos(d),
      reverseCharge: 'N',
      invoiceType: 'Regular B2B',
      rate: rateOf(d.taxes),
      taxableValue: d.taxableValue,
      integratedTax: taxSum(d.taxes, 'IGST'),
      centralTax: taxSum(d.taxes, 'CGST'),
      stateTax: taxSum(d.taxes, 'SGST'),
    }));
  const b2cl = invoices
    .filter((d) => invoiceTable(d) === 'b2cl')
    .map((d) => ({
      invoiceNumber: d.number,
      invoiceDate: d.date,
      invoiceValue: d.value,
      placeOfSupply: pos(d),
      rate: rateOf(d.taxes),
      taxableValue: d.taxableValue,
      integratedTax: taxSum(d.taxes, 'IGST'),
    }));

  // B2C small: consolidated per place of supply and rate; a credit note on such an invoice is
  // reported by reducing the same line (it has no table of its own).
  const b2csLines = [
    ...invoices.filter((d) => invoiceTable(d) === 'b2cs').map((d) => ({ sign: 1, d })),
    ...notes
      .filter((n) => n.refersTo && byId.get(n.refersTo) && invoiceTable(byId.get(n.refersTo)!) === 'b2cs')
      .map((d) => ({ sign: -1, d })),
  ].map(({ sign, d }) => ({
    type: 'OE',
    placeOfSupply: pos(d),
    rate: rateOf(d.taxes),
    taxableValue: sign * d.taxableValue,
    integratedTax: sign * taxSum(d.taxes, 'IGST'),
    centralTax: sign * taxSum(d.taxes, 'CGST'),
    stateTax: sign * taxSum(d.taxes, 'SGST'),
  }));
  const b2cs = consolidate(b2csLines, (r) => `${r.placeOfSupply}|${r.rate}`, ['taxableValue', 'integratedTax', 'centralTax', 'stateTax']);

  const exp = invoices
    .filter((d) => invoiceTable(d) === 'exp')
    .map((d) => ({
      exportType: d.underLut ? 'WOPAY' : 'WPAY',
      invoiceNumber: d.number,
      invoiceDate: d.date,
      invoiceValue: d.value,
      rate: d.underLut ? 0 : rateOf(d.taxes),
      taxableValue: d.taxableValue,
      integratedTax: taxSum(d.taxes, 'IGST'),
    }));

  // Advances (Table 11): a receipt voucher of this month whose supply was neither invoiced nor the
  // advance refunded by the month's end is tax paid on an advance (`at`). An earlier month's advance
  // invoiced or refunded this month is adjusted (`atadj`). Both within the month: neither.
  const settledBy = new Map<string, ReturnDocument>();
  for (const d of live) if ((d.kind === 'tax_invoice' || d.kind === 'refund_voucher') && d.refersTo) settledBy.set(d.refersTo, d);
  const advanceLine = (rv: ReturnDocument) => ({
    placeOfSupply: pos(rv),
    rate: rateOf(rv.taxes),
    grossAdvance: rv.taxableValue,
    integratedTax: taxSum(rv.taxes, 'IGST'),
    centralTax: taxSum(rv.taxes, 'CGST'),
    stateTax: taxSum(rv.taxes, 'SGST'),
  });
  const at = consolidate(
    docs.filter((d) => d.kind === 'receipt_voucher' && !settledBy.has(d.id)).map(advanceLine),
    (r) => `${r.placeOfSupply}|${r.rate}`,
    ['grossAdvance', 'integratedTax', 'centralTax', 'stateTax'],
  );
  const atadj = consolidate(
    docs
      .filter((d) => (d.kind === 'tax_invoice' || d.kind === 'refund_voucher') && d.refersTo)
      .map((d) => byId.get(d.refersTo!))
      .filter((rv): rv is ReturnDocument => !!rv && rv.kind === 'receipt_voucher' && !rv.cancelled && rv.date.slice(0, 7) < month)
      .map(advanceLine),
    (r) => `${r.placeOfSupply}|${r.rate}`,
    ['grossAdvance', 'integratedTax', 'centralTax', 'stateTax'],
  );

  const noteRow = (n: ReturnDocument) => ({
    noteNumber: n.number,
    noteDate: n.date,
    noteType: 'C',
    placeOfSupply: pos(n),
    noteValue: n.value,
    rate: rateOf(n.taxes),
    taxableValue: n.taxableValue,
    integratedTax: taxSum(n.taxes, 'IGST'),
    centralTax: taxSum(n.taxes, 'CGST'),
    stateTax: taxSum(n.taxes, 'SGST'),
  });
  const cdnr = notes
    .filter((n) => n.buyerGstin)
    .map((n) => ({ gstin: n.buyerGstin, receiverName: n.buyerName, ...noteRow(n), reverseCharge: 'N', noteSupplyType: 'Regular B2B' }));
  const cdnur = notes
    .filter((n) => !n.buyerGstin)
    .map((n) => ({ n, of: n.refersTo ? byId.get(n.refersTo) : undefined }))
    .filter(({ of }) => of && invoiceTable(of) !== 'b2cs')
    .map(({ n, of }) => ({ urType: invoiceTable(of!) === 'b2cl' ? 'B2CL' : of!.underLut ? 'EXPWOP' : 'EXPWP', ...noteRow(n) }));

  // SAC summary of the month's supplies: invoices less credit notes (advances are not supplies yet).
  const hsn = consolidate(
    [...invoices.map((d) => ({ sign: 1, d })), ...notes.map((d) => ({ sign: -1, d }))].map(({ sign, d }) => ({
      hsn: d.sac,
      description: 'Website design and development services',
      uqc: 'NA',
      totalQuantity: 0,
      rate: d.supplyType === 'export' && d.underLut ? 0 : rateOf(d.taxes),
      totalValue: sign * d.value,
      taxableValue: sign * d.taxableValue,
      integratedTax: sign * taxSum(d.taxes, 'IGST'),
      centralTax: sign * taxSum(d.taxes, 'CGST'),
      stateTax: sign * taxSum(d.taxes, 'SGST'),
    })),
    (r) => `${r.hsn}|${r.rate}`,
    ['totalValue', 'taxableValue', 'integratedTax', 'centralTax', 'stateTax'],
  );

  // Documents issued in the month, per kind, cancelled ones included (Table 13).
  const NATURE: Record<ReturnDocument['kind'], string> = {
    tax_invoice: 'Invoices for outward supply',
    receipt_voucher: 'Receipt Voucher',
    refund_voucher: 'Refund Voucher',
    credit_note: 'Credit Note',
  };
  const docsTable = (Object.keys(NATURE) as ReturnDocument['kind'][])
    .map((kind) => {
      const of = history.filter((d) => inMonth(d) && d.kind === kind).sort((a, b) => a.number.localeCompare(b.number));
      if (!of.length) return null;
      return {
        nature: NATURE[kind],
        from: of[0]!.number,
        to: of[of.length - 1]!.number,
        totalNumber: of.length,
        cancelled: of.filter((d) => d.cancelled).length,
      };
    })
    .filter((r): r is NonNullable<typeof r> => r !== null);

  const MONEY = ['invoiceValue', 'taxableValue', 'integratedTax', 'centralTax', 'stateTax'];
  const tables: MonthlyReturn['tables'] = {
    b2b: { rows: b2b, totals: sumRows(b2b, MONEY) },
    b2cl: { rows: b2cl, totals: sumRows(b2cl, MONEY) },
    b2cs: { rows: b2cs, totals: sumRows(b2cs, MONEY) },
    exp: { rows: exp, totals: sumRows(exp, MONEY) },
    at: { rows: at, totals: sumRows(at, ['grossAdvance', 'integratedTax', 'centralTax', 'stateTax']) },
    atadj: { rows: atadj, totals: sumRows(atadj, ['grossAdvance', 'integratedTax', 'centralTax', 'stateTax']) },
    cdnr: { rows: cdnr, totals: sumRows(cdnr, ['noteValue', 'taxableValue', 'integratedTax', 'centralTax', 'stateTax']) },
    cdnur: { rows: cdnur, totals: sumRows(cdnur, ['noteValue', 'taxableValue', 'integratedTax', 'centralTax', 'stateTax']) },
    hsn: { rows: hsn, totals: sumRows(hsn, ['totalValue', 'taxableValue', 'integratedTax', 'centralTax', 'stateTax']) },
    docs: { rows: docsTable, totals: sumRows(docsTable, ['totalNumber', 'cancelled']) },
  };

  // The tables add up to the month's documents (each figure computed from the documents directly).
  const t = tables;
  const invoiceTaxable = invoices.reduce((s, d) => s + d.taxableValue, 0);
  const noteTaxable = notes.reduce((s, d) => s + d.taxableValue, 0);
  const invoiceTax = invoices.reduce((s, d) => s + taxSum(d.taxes), 0);
  const noteTax = notes.reduce((s, d) => s + taxSum(d.taxes), 0);
  const b2csNotes = b2csLines.filter((r) => r.taxableValue < 0).reduce((s, r) => s + r.taxableValue, 0);
  const check = (name: string, expected: number, actual: number): ReturnCheck => ({ name, expected, actual, ok: expected === actual });
  const checks = [
    check(
      'Invoices: taxable value in b2b + b2cl + b2cs + exp',
      invoiceTaxable,
      t.b2b.totals.taxableValue! + t.b2cl.totals.taxableValue! + (t.b2cs.totals.taxableValue! - b2csNotes) + t.exp.totals.taxableValue!,
    ),
    check(
      'Credit notes: taxable value in cdnr + cdnur + b2cs reductions',
      noteTaxable,
      t.cdnr.totals.taxableValue! + t.cdnur.totals.taxableValue! - b2csNotes,
    ),
    check('SAC summary: taxable value', invoiceTaxable - noteTaxable, t.hsn.totals.taxableValue!),
    check('SAC summary: tax', invoiceTax - noteTax, t.hsn.totals.integratedTax! + t.hsn.totals.centralTax! + t.hsn.totals.stateTax!),
    check(
      'Advances received and not invoiced',
      docs.filter((d) => d.kind === 'receipt_voucher' && !settledBy.has(d.id)).reduce((s, d) => s + d.taxableValue, 0),
      t.at.totals.grossAdvance!,
    ),
    check('Documents issued', history.filter(inMonth).length, t.docs.totals.totalNumber!),
  ];
  return { tables, checks, reconciled: checks.every((c) => c.ok) };
}

const rupees = (paise: number | string | null | undefined) => (typeof paise === 'number' ? (paise / 100).toFixed(2) : (paise ?? ''));

/** The GST offline tool's column layout of each table, and how a row fills it. */
export const RETURN_CSV: Record<
  ReturnTableName,
  { header: string[]; row: (r: Record<string, string | number | null>) => (string | number)[] }
> = {
  b2b: {
    header: [
      'GSTIN/UIN of Recipient',
      'Receiver Name',
      'Invoice Number',
      'Invoice date',
      'Invoice Value',
      'Place Of Supply',
      'Reverse Charge',
      'Applicable % of Tax Rate',
      'Invoice Type',
      'E-Commerce GSTIN',
      'Rate',
      'Taxable Value',
      'Cess Amount',
    ],
    row: (r) => [
      r.gstin ?? '',
      r.receiverName ?? '',
      r.invoiceNumber!,
      returnDate(String(r.invoiceDate)),
      rupees(r.invoiceValue),
      r.placeOfSupply!,
      r.reverseCharge!,
      '',
      r.invoiceType!,
      '',
      r.rate!,
      rupees(r.taxableValue),
      '',
    ],
  },
  b2cl: {
    header: [
      'Invoice Number',
      'Invoice date',
      'Invoice Value',
      'Place Of Supply',
      'Applicable % of Tax Rate',
      'Rate',
      'Taxable Value',
      'Cess Amount',
      'E-Commerce GSTIN',
    ],
    row: (r) => [
      r.invoiceNumber!,
      returnDate(String(r.invoiceDate)),
      rupees(r.invoiceValue),
      r.placeOfSupply!,
      '',
      r.rate!,
      rupees(r.taxableValue),
      '',
      '',
    ],
  },
  b2cs: {
    header: ['Type', 'Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'E-Commerce GSTIN'],
    row: (r) => [r.type!, r.placeOfSupply!, '', r.rate!, rupees(r.taxableValue), '', ''],
  },
  exp: {
    header: [
      'Export Type',
      'Invoice Number',
      'Invoice date',
      'Invoice Value',
      'Port Code',
      'Shipping Bill Number',
      'Shipping Bill Date',
      'Rate',
      'Taxable Value',
      'Cess Amount',
    ],
    row: (r) => [
      r.exportType!,
      r.invoiceNumber!,
      returnDate(String(r.invoiceDate)),
      rupees(r.invoiceValue),
      '',
      '',
      '',
      r.rate!,
      rupees(r.taxableValue),
      '',
    ],
  },
  at: {
    header: ['Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Gross Advance Received', 'Cess Amount'],
    row: (r) => [r.placeOfSupply!, '', r.rate!, rupees(r.grossAdvance), ''],
  },
  atadj: {
    header: ['Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Gross Advance Adjusted', 'Cess Amount'],
    row: (r) => [r.placeOfSupply!, '', r.rate!, rupees(r.grossAdvance), ''],
  },
  cdnr: {
    header: [
      'GSTIN/UIN of Recipient',
      'Receiver Name',
      'Note Number',
      'Note Date',
      'Note Type',
      'Place Of Supply',
      'Reverse Charge',
      'Note Supply Type',
      'Note Value',
      'Applicable % of Tax Rate',
      'Rate',
      'Taxable Value',
      'Cess Amount',
    ],
    row: (r) => [
      r.gstin ?? '',
      r.receiverName ?? '',
      r.noteNumber!,
      returnDate(String(r.noteDate)),
      r.noteType!,
      r.placeOfSupply!,
      r.reverseCharge!,
      r.noteSupplyType!,
      rupees(r.noteValue),
      '',
      r.rate!,
      rupees(r.taxableValue),
      '',
    ],
  },
  cdnur: {
    header: [
      'UR Type',
      'Note Number',
      'Note Date',
      'Note Type',
      'Place Of Supply',
      'Note Value',
      'Applicable % of Tax Rate',
      'Rate',
      'Taxable Value',
      'Cess Amount',
    ],
    row: (r) => [
      r.urType!,
      r.noteNumber!,
      returnDate(String(r.noteDate)),
      r.noteType!,
      r.placeOfSupply!,
      rupees(r.noteValue),
      '',
      r.rate!,
      rupees(r.taxableValue),
      '',
    ],
  },
  hsn: {
    header: [
      'HSN',
      'Description',
      'UQC',
      'Total Quantity',
      'Total Value',
      'Rate',
      'Taxable Value',
      'Integrated Tax Amount',
      'Central Tax Amount',
      'State/UT Tax Amount',
      'Cess Amount',
    ],
    row: (r) => [
      r.hsn!,
      r.description!,
      r.uqc!,
      r.totalQuantity!,
      rupees(r.totalValue),
      r.rate!,
      rupees(r.taxableValue),
      rupees(r.integratedTax),
      rupees(r.centralTax),
      rupees(r.stateTax),
      '',
    ],
  },
  docs: {
    header: ['Nature of Document', 'Sr. No. From', 'Sr. No. To', 'Total Number', 'Cancelled'],
    row: (r) => [r.nature!, r.from!, r.to!, r.totalNumber!, r.cancelled!],
  },
};
