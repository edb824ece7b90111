import type PDFKit from 'pdfkit';
import type { InvoiceSeries, InvoiceSnapshot } from '../../../contract/invoices.ts';
import { formatMoney } from '../../../domain/money.ts';

// pdfkit (~10 MB resident once loaded, with its font metrics) is loaded on the first invoice, not at
// start-up: most processes render none for hours (the memory budget of bench/startup.ts).
let pdfkit: Promise<typeof PDFKit> | undefined;
const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((m) => m.default));

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

// pdfkit's built-in fonts are WinAnsi: "₹" cannot be drawn, so amounts carry the ISO code
// ("INR 15,588.00"), which is also what a tax invoice should show.
const money = (minor: number, s: InvoiceSnapshot) => formatMoney(minor, { symbol: `${s.currency} `, minorDigits: s.minorDigits });
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
  const PDFDocument = await loadPdfkit();
  const s = inv.snapshot;
  const zone = s.timeZone ?? inv.defaultTimeZone;
  // A test-mode payment moved no money: its document must never pass for a tax invoice (decision 120).
  const isTest = inv.series === 'test_invoice';
  const title = { invoice: 'TAX INVOICE', credit_note: 'CREDIT NOTE', test_invoice: 'TEST — NOT A TAX INVOICE' }[inv.series];
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `${title} ${inv.number}`,
      Author: s.seller.legalName,
      CreationDate: inv.issuedAt,
      ModDate: inv.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = 50;
  const width = doc.page.width - 100;
  doc.font('Helvetica-Bold').fontSize(18).text(title, left, 50);
  if (isTest) {
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor('#b00020')
      .text('This payment was made in test mode: no money moved and no tax is due. Not valid for accounting.', left, doc.y + 4, { width: doc.page.width - 100 })
      .fillColor('#000000');
  }
  doc.font('Helvetica').fontSize(10).text(`Number: ${inv.number}`, { align: 'right' });
  doc.text(`Date: ${dateOf(inv.issuedAt, zone)} (${zone})`, { align: 'right' });
  if (inv.correctsNumber) doc.text(`Corrects invoice ${inv.correctsNumber}`, { align: 'right' });
  doc.moveDown();

  const top = doc.y;
  const col = width / 2 - 10;
  doc.font('Helvetica-Bold').text('Seller', left, top, { width: col });
  doc.font('Helvetica').text(s.seller.legalName, { width: col }).text(s.seller.address, { width: col });
  if (s.seller.taxId) doc.text(`GSTIN / Tax id: ${s.seller.taxId}`, { width: col });
  doc.text(s.seller.email, { width: col });
  const afterSeller = doc.y;
  doc.font('Helvetica-Bold').text('Billed to', left + col + 20, top, { width: col });
  doc.font('Helvetica').text(s.buyer.name, { width: col });
  if (s.buyer.address) doc.text(s.buyer.address, { width: col });
  if (s.buyer.taxId) doc.text(`Tax id: ${s.buyer.taxId}`, { width: col });
  doc.text(s.buyer.email, { width: col });
  doc.y = Math.max(afterSeller, doc.y) + 20;

  const row = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').text(label, left, y, { width: width - 160 });
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
  if (s.charge) {
    // A maintenance-plan charge: one line for the month it pays for, nothing owed after.
    row(`${s.description}, ${dateOf(new Date(s.charge.periodStart), zone)} to ${dateOf(new Date(s.charge.periodEnd), zone)}`, money(s.total, s));
    rule();
    row('Total paid', money(s.total, s), true);
  } else {
    row(s.description, money(s.listPrice, s));
    if (s.listPrice !== s.price) row('Offer price reduction', `-${money(s.listPrice - s.price, s)}`);
    if (s.discount > 0) row(`Discount${s.couponCode ? ` (code ${s.couponCode}, ${s.discountPercent}%)` : ''}`, `-${money(s.discount, s)}`);
    row('Platform fee', money(s.fee, s));
    rule();
    row('Order total', money(s.total, s), true);
    doc.moveDown(0.5);
    row(`This installment: ${s.installment.label}`, money(s.installment.amount, s), true);
    if (s.paidBefore > 0) row('Paid before this installment', money(s.paidBefore, s));
    row('Remaining after this payment', money(s.remainingAfter, s));
  }
  doc.moveDown();
  doc.font('Helvetica').fontSize(9).fillColor('#444444');
  doc.text(`Payment id ${s.paymentId}, received ${dateOf(new Date(s.paidAt), zone)}. Currency: ${s.currency}.`, left, doc.y, { width });
  doc.text(
    isTest
      ? 'TEST document of a test-mode payment, numbered apart from the tax invoices; it is not a tax invoice.'
      : 'This invoice is issued once and never changed; any correction is made by a credit note.',
    { width },
  );
  doc.end();
  return done;
}
