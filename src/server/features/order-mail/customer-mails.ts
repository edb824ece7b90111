import { STAGES, formatCustomerDate, stageDoneText } from '../../../domain/tracker.ts';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { renderEmail } from '../mail/render-email.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { invoiceAttachment } from '../invoices/invoice-queries.ts';

// The customer's e-mails of the order's progress — a stage completed, a payment received — all
// through the outbox. Sent after commit by the subscribers in subscriptions.ts.

export async function mailStageCompleted(deps: AppDeps, to: string, orderPublicId: string, stage: number, note: string | null, at: Date) {
  const name = STAGES[stage - 1] ?? `Stage ${stage}`;
  await deps.mailer.enqueue(
    to,
    'order-stage',
    renderEmail(deps.config.BRAND_NAME, {
      subject: `Order ${orderPublicId}: ${stageDoneText(name)}`,
      heading: `${name} — done`,
      paragraphs: [`Stage ${stage} of ${STAGES.length} of your website order is complete.`, ...(note ? [note] : [])],
      rows: [
        ['Order', orderPublicId],
        ['Completed', formatCustomerDate(at)],
      ],
      action: { label: 'Follow your order', url: `${deps.config.publicUrl}/status/${orderPublicId}` },
    }),
  );
}

export async function mailReceipt(
  deps: AppDeps,
  to: string,
  r: { orderPublicId: string; kind: 'advance' | 'remaining'; amount: number; currency: string; paymentId: string; paidAt: Date; invoice?: { id: string; number: string } },
) {
  const c = displayCurrency(moneyContext(deps), r.currency);
  const label = r.kind === 'advance' ? 'Advance payment (20%)' : 'Remaining payment (80%)';
  await deps.mailer.enqueue(
    to,
    'payment-receipt',
    renderEmail(deps.config.BRAND_NAME, {
      subject: `Receipt: ${label} for order ${r.orderPublicId}`,
      heading: 'Payment received — thank you!',
      paragraphs: [
        r.kind === 'advance'
          ? 'Your order is confirmed and design starts now. You can follow every stage on your dashboard.'
          : 'Your order is fully paid. The website link will be delivered on your order page.',
      ],
      rows: [
        ['Order', r.orderPublicId],
        ['Payment', label],
        ['Amount', formatMoney(r.amount, c)],
        ['Currency', r.currency],
        ['Payment id', r.paymentId],
        ['Date', formatCustomerDate(r.paidAt)],
        ...(r.invoice ? [['Invoice', r.invoice.number] as [string, string]] : []),
      ],
      action: { label: 'View your order', url: `${deps.config.publicUrl}/status/${r.orderPublicId}` },
    }),
    // The tax invoice PDF travels with the receipt.
    r.invoice ? [await invoiceAttachment(deps, r.invoice.id)] : undefined,
  );
}
