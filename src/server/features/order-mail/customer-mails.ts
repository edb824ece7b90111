import { formatWhen } from '../../../domain/when.ts';
import { formatMoney } from '../../../domain/money.ts';
import { maintenancePeriodLabel } from '../../../domain/maintenance-plan.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { renderEmail } from '../mail/render-email.ts';
import { mailTimeZone } from '../mail/mail-time.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';

// The customer's e-mails that go at once — a payment received, the website delivered — queued in
// the outbox in the transaction of the change they report (docs/architecture.md, "Events and
// jobs"). Stages completed by the founder go through the batched notices instead (notices feature).

export async function mailReceipt(
  deps: AppDeps,
  tx: Tx,
  to: string,
  r: {
    orderPublicId: string;
    kind: 'advance' | 'remaining' | 'change' | 'maintenance';
    amount: number;
    currency: string;
    paymentId: string;
    paidAt: Date;
    invoice: { id: string; number: string };
    /** kind 'change': the change paid and the days it adds to the delivery. */
    change?: { title: string; extraDays: number };
    /** kind 'maintenance': the month paid for. */
    period?: { start: Date; end: Date };
  },
) {
  const c = displayCurrency(moneyContext(deps), r.currency);
  const zone = mailTimeZone(deps.config);
  const label =
    r.kind === 'advance'
      ? 'Advance payment (20%)'
      : r.kind === 'remaining'
        ? 'Remaining payment (80%)'
        : r.kind === 'maintenance'
          ? maintenancePeriodLabel(r.period?.start ?? r.paidAt, zone)
          : `Change: ${r.change?.title ?? ''}`;
  const days = r.change?.extraDays ?? 0;
  await deps.mailer.enqueue(
    tx,
    to,
    'payment-receipt',
    renderEmail(deps.config.BRAND_NAME, {
      subject: `Receipt: ${label} for order ${r.orderPublicId}`,
      heading: 'Payment received — thank you!',
      paragraphs: [
        r.kind === 'advance'
          ? 'Your order is confirmed and design starts now. You can follow every stage on your dashboard.'
          : r.kind === 'remaining'
            ? 'Your order is fully paid. The website link will be delivered on your order page.'
            : r.kind === 'maintenance' && r.period
              ? `Your monthly maintenance plan is paid from ${formatWhen(r.period.start, zone)} to ${formatWhen(r.period.end, zone)}. ` +
                `The tax invoice for the month is attached.`
              : `Your change is accepted and paid; we have started on it.${days > 0 ? ` The delivery moves by ${days} day${days === 1 ? '' : 's'}.` : ''}`,
      ],
      rows: [
        ['Order', r.orderPublicId],
        ['Payment', label],
        ['Amount', formatMoney(r.amount, c)],
        ['Currency', r.currency],
        ['Payment id', r.paymentId],
        ['Date', formatWhen(r.paidAt, zone)],
        ['Invoice', r.invoice.number],
      ],
      action: {
        label: 'View your order',
        url: `${deps.config.publicUrl}/status/${r.orderPublicId}`,
      },
    }),
    // The tax invoice PDF travels with the receipt, rendered by the mail worker when it sends.
    [{ kind: 'invoice', id: r.invoice.id }],
  );
}

/** The website is the customer's: the mail carries its link (and goes at once, not in a batch). */
export async function mailDelivered(deps: AppDeps, tx: Tx, to: string, d: { orderPublicId: string; deliveryUrl: string; at: Date }) {
  await deps.mailer.enqueue(
    tx,
    to,
    'order-delivered',
    renderEmail(deps.config.BRAND_NAME, {
      subject: `Your website is live — order ${d.orderPublicId}`,
      heading: 'Your website is delivered',
      paragraphs: ['Your website is ready and yours. Open it with the link below; your order page keeps the link and your documents.'],
      rows: [
        ['Order', d.orderPublicId],
        ['Website', d.deliveryUrl],
        ['Delivered', formatWhen(d.at, mailTimeZone(deps.config))],
      ],
      action: { label: 'Open your website', url: d.deliveryUrl },
    }),
  );
}
