import { and, eq, ne } from 'drizzle-orm';
import { LEDGER_KIND_LABEL, type StatementResponse } from '../../../contract/statement.ts';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { billingDetails } from '../../db/schema/invoices.ts';
import { notFound } from '../../lib/app-error.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { a4Document } from '../../lib/pdf-document.ts';
import { buyerOf, sellerOf } from '../invoices/issue-invoice.ts';
import { linesOf } from './post.ts';
import { totalsOf } from './lines.ts';

// The statement of account of one order (docs/decisions/320-order-ledger.md): its ledger's lines
// and totals, as JSON for the Payments tab and as a PDF worded like the invoices.

/** The order a reader may see: the customer's own (placed) order, or any placed order for the back office. */
async function orderFor(deps: AppDeps, publicId: string, customerId: string | null) {
  const [order] = await deps.db
    .select({
      id: orders.id,
      publicId: orders.publicId,
      currency: orders.currency,
      state: orders.state,
      userId: orders.userId,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(and(eq(orders.publicId, publicId), ne(orders.state, 'awaiting_advance'), ...(customerId ? [eq(orders.userId, customerId)] : [])))
    .limit(1);
  // Another customer's order answers as an unknown one.
  if (!order) throw notFound('Order not found.');
  return order;
}

/** The statement of `publicId`, for its customer (`customerId`) or the back office (null). */
export async function readStatement(deps: AppDeps, publicId: string, customerId: string | null): Promise<StatementResponse> {
  const order = await orderFor(deps, publicId, customerId);
  const lines = await linesOf(deps.db as never, order.id);
  const totals = totalsOf(lines);
  const display = displayCurrency(moneyContext(deps), order.currency);
  return {
    orderId: order.publicId,
    currency: order.currency,
    symbol: display.symbol,
    minorDigits: display.minorDigits,
    state: order.state,
    lines: lines.map((l) => ({
      at: l.at.toISOString(),
      kind: l.kind,
      description: l.description,
      documentNumber: l.documentNumber,
      amount: l.amount,
    })),
    totals,
  };
}

/** The statement as an A4 PDF: same fonts, dates in INVOICE_TIME_ZONE and money as the invoices print it. */
export async function statementPdf(deps: AppDeps, publicId: string, customerId: string | null): Promise<{ pdf: Buffer; filename: string }> {
  const statement = await readStatement(deps, publicId, customerId);
  const order = await orderFor(deps, publicId, customerId);
  const [customer] = await deps.db
    .select({
      name: users.name,
      email: users.email,
      address: users.address,
      billingName: billingDetails.billingName,
      billingAddress: billingDetails.billingAddress,
      taxId: billingDetails.taxId,
    })
    .from(users)
    .leftJoin(billingDetails, eq(billingDetails.userId, users.id))
    .where(eq(users.id, order.userId))
    .limit(1);
  const seller = sellerOf(deps.config);
  const buyer = customer ? buyerOf(customer, customer) : { name: 'Deleted customer', email: '', address: null, taxId: null };
  const zone = deps.config.INVOICE_TIME_ZONE;
  const now = new Date();
  const date = (d: Date) => d.toLocaleDateString('en-GB', { day: '2-digit', month: 'short', year: 'numeric', timeZone: zone });
  const money = (minor: number) => formatMoney(minor, statement);

  const { doc, bytes: done } = await a4Document({ Title: `Statement of account ${statement.orderId}`, Author: seller.legalName });
  const left = 50;
  const width = doc.page.width - 100;
  doc.font('Bold').fontSize(18).text('STATEMENT OF ACCOUNT', left, 50);
  doc.font('Regular').fontSize(10).text(`Order: ${statement.orderId}`, { align: 'right' });
  doc.text(`Date: ${date(now)} (${zone})`, { align: 'right' });
  if (statement.state === 'cancelled') doc.text('Order cancelled', { align: 'right' });
  doc.moveDown();
  const top = doc.y;
  const col = width / 2 - 10;
  doc.font('Bold').text('From', left, top, { width: col });
  doc.font('Regular').text(seller.legalName, { width: col }).text(seller.address, { width: col });
  if (seller.taxId) doc.text(`GSTIN / Tax id: ${seller.taxId}`, { width: col });
  doc.text(seller.email, { width: col });
  const afterSeller = doc.y;
  doc.font('Bold').text('Customer', left + col + 20, top, { width: col });
  doc.font('Regular').text(buyer.name, { width: col });
  if (buyer.address) doc.text(buyer.address, { width: col });
  if (buyer.email) doc.text(buyer.email, { width: col });
  doc.y = Math.max(afterSeller, doc.y) + 20;

  const cols = { date: 70, doc: 95, amount: 100 };
  const descWidth = width - cols.date - cols.doc - cols.amount - 15;
  const row = (c: [string, string, string, string], bold = false) => {
    if (doc.y > doc.page.height - 90) doc.addPage();
    const y = doc.y;
    doc.font(bold ? 'Bold' : 'Regular').fontSize(9);
    doc.text(c[0], left, y, { width: cols.date });
    const bottoms = [doc.y];
    doc.text(c[1], left + cols.date + 5, y, { width: descWidth });
    bottoms.push(doc.y);
    doc.text(c[2], left + cols.date + descWidth + 10, y, { width: cols.doc });
    bottoms.push(doc.y);
    doc.text(c[3], left + width - cols.amount, y, { width: cols.amount, align: 'right' });
    doc.y = Math.max(...bottoms, doc.y) + 3;
  };
  const rule = () => {
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .strokeColor('#999999')
      .stroke();
    doc.y += 5;
  };
  row(['Date', 'Description', 'Document', `Amount (${statement.currency})`], true);
  rule();
  for (const l of statement.lines)
    row([date(new Date(l.at)), `${LEDGER_KIND_LABEL[l.kind]}: ${l.description}`, l.documentNumber ?? '', money(l.amount)]);
  rule();
  const t = statement.totals;
  const total = (label: string, amount: number, bold = false) => row(['', label, '', money(amount)], bold);
  total('Charged (tax included)', t.charged, true);
  if (t.tax !== 0) total('of which tax', t.tax);
  total('Paid', t.paid);
  if (t.refunded !== 0) total('Refunded', t.refunded);
  if (t.credited !== 0) total('Credited (credit notes and amounts no longer due)', t.credited);
  total(t.balanceDue < 0 ? 'Balance owed to you' : 'Balance due', Math.abs(t.balanceDue), true);
  doc.moveDown();
  doc.font('Regular').fontSize(9).fillColor('#444444');
  doc.text(
    'Charges and tax are added, payments and credits subtracted, refunds added back. This statement ' +
      'lists the documents each line belongs to; it is not itself a tax invoice.',
    left,
    doc.y,
    { width },
  );
  doc.end();
  return { pdf: await done, filename: `statement-${statement.orderId}.pdf` };
}
