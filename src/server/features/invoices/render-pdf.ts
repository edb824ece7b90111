import type { InvoiceSeries, InvoiceSnapshot } from '../../../contract/invoices.ts';
import { a4Document, BOLD, REGULAR } from '../../lib/pdf-document.ts';
import type { DocumentKind, DocumentTax } from '../../../contract/invoices.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { LUT_ENDORSEMENT } from '../../../domain/gst.ts';
import { formatMoney } from '../../../domain/money.ts';
import { type PriceLine, priceLines } from '../../../domain/price-lines.ts';

export interface PrintableInvoice {
  number: string;
  series: InvoiceSeries;
  issuedAt: Date;
  snapshot: InvoiceSnapshot;
  /** For a credit note: the invoice it corrects. */
  correctsNumber?: string | null;
  /** The zone of the financial year (INVOICE_TIME_ZONE), for snapshots issued before it was frozen in. */
  defaultTimeZone: string;
}

// The page and its fonts (DejaVu Sans, for ₹): src/server/lib/pdf-document.ts, shared with the care reports.
/** The currency's own symbol ("₹76,415.00", "$916.98"); a code we have no symbol for leads with the code. */
const money = (minor: number, s: InvoiceSnapshot) =>
  formatMoney(minor, { symbol: findCurrency(s.currency)?.symbol ?? `${s.currency} `, minorDigits: s.minorDigits });
// Dates are the calendar dates of the financial year's time zone (INVOICE_TIME_ZONE), which also
// decides the invoice's year: a payment at 19:00 UTC on 31 March is dated 1 April in India.
const dateOf = (d: Date, timeZone: string) =>
  d.toLocaleDateString('en-GB', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    timeZone,
  });

/** Draws one invoice (or credit note) on an A4 page; the same input always gives the same text. */
export async function renderInvoicePdf(inv: PrintableInvoice): Promise<Buffer> {
  const s = inv.snapshot;
  const zone = s.timeZone ?? inv.defaultTimeZone;
  // A test-mode payment moved no money: its document must never pass for a tax invoice (decision 120).
  const isTest = inv.series === 'test_invoice';
  const d = s.document;
  const kindTitle = d ? TITLES[d.kind] : inv.series === 'credit_note' ? 'CREDIT NOTE' : 'TAX INVOICE';
  const title = isTest ? 'TEST — NOT A TAX INVOICE' : kindTitle;
  const { doc, bytes } = await a4Document({
    Title: `${title} ${inv.number}`,
    Author: s.seller.legalName,
    CreationDate: inv.issuedAt,
    ModDate: inv.issuedAt,
  });

  const left = 50;
  const width = doc.page.width - 100;
  doc.font(BOLD).fontSize(18).text(title, left, 50);
  if (isTest) {
    doc
      .font(REGULAR)
      .fontSize(10)
      .fillColor('#b00020')
      .text(
        `${d ? `${kindTitle[0]}${kindTitle.slice(1).toLowerCase()} of a test payment. ` : ''}This payment was made in test ` +
          `mode: no money moved and no tax is due. Not valid for accounting.`,
        left,
        doc.y + 4,
        { width: doc.page.width - 100 },
      )
      .fillColor('#000000');
  }
  doc.font(REGULAR).fontSize(10).text(`Number: ${inv.number}`, { align: 'right' });
  doc.text(`Date: ${dateOf(inv.issuedAt, zone)} (${zone})`, { align: 'right' });
  if (inv.correctsNumber) doc.text(`Corrects invoice ${inv.correctsNumber}`, { align: 'right' });
  if (d?.regime === 'gst') {
    doc.text(`Place of supply: ${d.placeOfSupply.name} (${d.placeOfSupply.code})`, { align: 'right' });
    doc.text('Tax payable on reverse charge: No', { align: 'right' });
  }
  doc.moveDown();

  const top = doc.y;
  const col = width / 2 - 10;
  doc.font(BOLD).text('Seller', left, top, { width: col });
  doc.font(REGULAR).text(s.seller.legalName, { width: col }).text(s.seller.address, { width: col });
  if (d?.regime === 'gst') {
    doc.text(`GSTIN: ${d.seller.gstin ?? ''}`, { width: col });
    if (d.seller.stateName) doc.text(`State: ${d.seller.stateName} (${d.seller.stateCode})`, { width: col });
  } else if (d) {
    if (s.seller.taxId) doc.text(`Tax id: ${s.seller.taxId}`, { width: col });
    doc.text('Supplier not registered under GST', { width: col });
  } else if (s.seller.taxId) doc.text(`GSTIN / Tax id: ${s.seller.taxId}`, { width: col });
  doc.text(s.seller.email, { width: col });
  const afterSeller = doc.y;
  doc.font(BOLD).text('Billed to', left + col + 20, top, { width: col });
  doc.font(REGULAR).text(s.buyer.name, { width: col });
  if (s.buyer.address) doc.text(s.buyer.address, { width: col });
  if (d?.buyer.gstin) doc.text(`GSTIN: ${d.buyer.gstin}`, { width: col });
  if (s.buyer.taxId && s.buyer.taxId !== d?.buyer.gstin) doc.text(`Tax id: ${s.buyer.taxId}`, { width: col });
  if (d?.buyer.country === 'IN' && d.buyer.stateCode) doc.text(`State code: ${d.buyer.stateCode}`, { width: col });
  else if (d?.buyer.country && d.buyer.country !== 'IN' && d.buyer.country !== 'ZZ')
    doc.text(`Country: ${d.buyer.countryName}`, { width: col });
  doc.text(s.buyer.email, { width: col });
  doc.y = Math.max(afterSeller, doc.y) + 20;

  const row = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? BOLD : REGULAR).text(label, left, y, { width: width - 160 });
    const labelBottom = doc.y;
    doc.text(value, left + width - 150, y, { width: 150, align: 'right' });
    doc.y = Math.max(labelBottom, doc.y) + 4;
  };
  const rule = () => {
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .strokeColor('#999999')
      .stroke();
    doc.y += 6;
  };

  row('Description', `Amount (${s.currency})`, true);
  rule();
  // A maintenance month is named as the lists name it ("Maintenance, Dec 2027"); older snapshots' label is the description itself.
  const month = s.installment.kind === 'maintenance' && s.installment.label.startsWith('Maintenance, ') ? `${s.installment.label}: ` : '';
  if (d) {
    drawDocumentBody(d);
  } else if (s.charge || s.change) {
    // A maintenance-plan charge: one line for the month it pays for, nothing owed after;
    // a paid change request: one line for the change.
    row(
      s.charge
        ? `${month}${s.description}, ${dateOf(new Date(s.charge.periodStart), zone)} to ${dateOf(new Date(s.charge.periodEnd), zone)}`
        : s.description,
      money(s.total, s),
    );
    rule();
    row('Total paid', money(s.total, s), true);
  } else {
    priceRows(orderLinesOf(s) ?? [], '');
    doc.moveDown(0.5);
    row(`This installment: ${s.installment.label}`, money(s.installment.amount, s), true);
    if (s.paidBefore > 0) row('Paid before this installment', money(s.paidBefore, s));
    row('Remaining after this payment', money(s.remainingAfter, s));
  }
  /** The order's price in the words of the quote (src/domain/price-lines.ts); the total under a rule. */
  function priceRows(lines: readonly PriceLine[], sac: string) {
    for (const l of lines) {
      if (l.key === 'total') rule();
      const label = l.key === 'list_price' ? `${l.label}${sac}` : l.label;
      row(label, l.amount < 0 ? `-${money(-l.amount, s)}` : money(l.amount, s), l.key === 'total' || l.key === 'taxable_value');
    }
  }
  function taxLines(x: Pick<DocumentTax, 'taxes'>) {
    for (const t of x.taxes) row(`${t.kind} @ ${t.rate} %`, money(t.amount, s));
  }
  function drawDocumentBody(x: DocumentTax) {
    const sac = x.regime === 'gst' ? ` (SAC ${x.sac})` : '';
    const period = s.charge ? `, ${dateOf(new Date(s.charge.periodStart), zone)} to ${dateOf(new Date(s.charge.periodEnd), zone)}` : '';
    if (x.kind === 'receipt_voucher' || x.kind === 'receipt') {
      // The order as quoted, then the advance received on it with the tax inside it (rule 50).
      const lines = orderLinesOf(s);
      if (lines) {
        priceRows(lines, sac);
        doc.moveDown(0.5);
        row(`${s.installment.label} received`, '', true);
      } else row(`Advance received for: ${s.description}${sac}`, '');
      row(x.regime === 'gst' ? 'Value of the advance before tax' : 'Advance', money(x.taxableValue, s));
      taxLines(x);
      rule();
      row('Amount of advance received', money(x.amountPaid, s), true);
      if (s.remainingAfter > 0) row('Remaining to be paid at completion', money(s.remainingAfter, s));
    } else if (x.kind === 'refund_voucher') {
      row(`Refund of the advance${x.adjusts ? ` received by receipt voucher ${x.adjusts.number}` : ''}: ${s.description}${sac}`, '');
      row('Value before tax', money(x.taxableValue, s));
      taxLines(x);
      rule();
      row('Amount refunded', money(x.amountPaid, s), true);
    } else if (x.kind === 'credit_note') {
      row(`Reduction of ${s.description}${sac}`, '');
      row('Value before tax', money(x.taxableValue, s));
      taxLines(x);
      rule();
      row('Amount credited', money(x.amountPaid, s), true);
    } else if (s.installment.kind === 'maintenance') {
      row(`${month}${s.description}${period}${sac}`, money(x.taxableValue, s));
      row('Taxable value', money(x.taxableValue, s));
      taxLines(x);
      rule();
      row('Total paid', money(x.amountPaid, s), true);
    } else {
      priceRows(orderLinesOf(s) ?? [], sac);
      if (x.adjusts)
        row(
          `Less: advance received, ${x.adjusts.number} (${dateOf(new Date(x.adjusts.issuedAt), zone)})`,
          `-${money(x.adjusts.amount, s)}`,
        );
      row('Balance paid now', money(x.amountPaid, s), true);
    }
    doc.moveDown(0.5);
    doc.font(REGULAR).text(`Amount in words: ${x.amountInWords}`, left, doc.y, { width });
    if (x.export) {
      doc.moveDown(0.5);
      if (x.export.lutArn)
        doc
          .font(BOLD)
          .text(LUT_ENDORSEMENT, left, doc.y, { width })
          .font(REGULAR)
          .text(`LUT ARN ${x.export.lutArn}, valid until ${x.export.lutValidUntil}.`, { width });
      else doc.font(REGULAR).text('Export of services with payment of integrated tax (IGST).', left, doc.y, { width });
      doc.text(`Country of the recipient: ${x.buyer.countryName}.`, { width });
    }
    if (x.inr) {
      doc.text(
        `Value in INR: ₹${(x.inr.value / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ` +
          `at ₹${x.inr.rate.toFixed(4)} per ${s.currency} (CURRENCY_TABLE rate of ${dateOf(new Date(`${x.inr.rateDate}T12:00:00Z`), 'UTC')}).`,
        left,
        doc.y,
        { width },
      );
    }
    if (x.regime === 'none') doc.text('Supplier not registered under GST: no GST is charged.', left, doc.y, { width });
    doc.moveDown(1.5);
    doc.font(REGULAR).text(`For ${s.seller.legalName}`, left + width - 220, doc.y, { width: 220, align: 'right' });
    doc.moveDown(2);
    doc.text('Authorised signatory', left + width - 220, doc.y, { width: 220, align: 'right' });
  }

  doc.moveDown();
  doc.font(REGULAR).fontSize(9).fillColor('#444444');
  doc.text(`${paymentLine(s, zone)} Currency: ${s.currency}.`, left, doc.y, { width });
  doc.text(
    isTest
      ? 'TEST document of a test-mode payment, numbered apart from the tax invoices; it is not a tax invoice.'
      : `This ${d ? kindTitle.toLowerCase() : 'invoice'} is issued once and never changed; any correction is made by a credit note.`,
    { width },
  );
  doc.end();
  return bytes;
}

/**
 * The footer's line on the money the document records: a payment's id and date; a refund's own
 * reference and date, and the original payment it returns (docs/decisions/334-refund-footer-and-env-example.md).
 */
export function paymentLine(s: InvoiceSnapshot, zone: string): string {
  const kind = s.document?.kind;
  if (kind !== 'refund_voucher' && kind !== 'credit_note')
    return `Payment id ${s.paymentId}, received ${dateOf(new Date(s.paidAt), zone)}.`;
  const refund = `Refund reference ${s.paymentId}, refunded ${dateOf(new Date(s.paidAt), zone)}.`;
  const of = s.refundOf;
  if (of) return `${refund} It returns payment ${of.paymentId}, received ${dateOf(new Date(of.paidAt), zone)} (${of.documentNumber}).`;
  return s.document?.adjusts ? `${refund} It returns a payment documented by ${s.document.adjusts.number}.` : refund;
}

/**
 * The order's price lines a document prints: frozen in its snapshot at issue, or for an older
 * order document, described again from its figures — the whole supply's tax is known on a tax
 * invoice (and there is none unregistered), not on an older receipt voucher (null: its own layout).
 */
export function orderLinesOf(s: InvoiceSnapshot): PriceLine[] | null {
  if (s.lines) return s.lines;
  const d = s.document;
  const wholeTax = d && (d.regime === 'none' || d.kind === 'tax_invoice');
  if (d && !wholeTax) return null;
  const taxes = d?.regime === 'gst' ? d.taxes : [];
  const tax =
    d?.regime === 'gst'
      ? {
          regime: 'gst' as const,
          supplyType: d.supplyType,
          taxableValue: d.taxableValue,
          taxes,
          pricesIncludeTax: taxes.length > 0 && s.price - s.discount + s.fee === s.total,
        }
      : null;
  const { listPrice, price, discount, discountPercent, couponCode, fee, total } = s;
  return priceLines({ supply: s.description, listPrice, price, discount, discountPercent, couponCode, codeKind: null, fee, total, tax });
}

const TITLES: Record<DocumentKind, string> = {
  receipt_voucher: 'RECEIPT VOUCHER',
  tax_invoice: 'TAX INVOICE',
  refund_voucher: 'REFUND VOUCHER',
  credit_note: 'CREDIT NOTE',
  invoice: 'INVOICE',
  receipt: 'RECEIPT',
};
