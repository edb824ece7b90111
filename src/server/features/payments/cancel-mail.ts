import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { renderEmail } from '../mail/render-email.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';

/**
 * The customer's ONE mail about a cancelled order (docs/decisions/321-cancel-and-refund.md): at once
 * when nothing is refunded, else when the last of the cancel's refunds is processed, with the refund
 * vouchers and credit notes attached. Queued in the transaction that makes it true.
 */
export async function mailCancelSettled(
  deps: AppDeps,
  tx: Tx,
  to: string,
  c: {
    orderPublicId: string;
    reason: string;
    currency: string;
    refunded: number;
    documents: { id: string; number: string; kind: string }[];
  },
) {
  const money = c.currency ? formatMoney(c.refunded, displayCurrency(moneyContext(deps), c.currency)) : '';
  const docName = (kind: string) => (kind === 'credit_note' ? 'Credit note' : 'Refund voucher');
  await deps.mailer.enqueue(
    tx,
    to,
    'order-cancelled',
    renderEmail(deps.config.BRAND_NAME, {
      subject: `Order ${c.orderPublicId} is cancelled${c.refunded > 0 ? ` — ${money} refunded` : ''}`,
      heading: 'Your order is cancelled',
      paragraphs: [
        c.refunded > 0
          ? `We have cancelled order ${c.orderPublicId} and refunded ${money} to the card or UPI account you paid with. Your bank ` +
            `may take 5–7 working days to show it.`
          : `We have cancelled order ${c.orderPublicId}. Nothing is refunded on this order.`,
        'Nothing more is due on this order. Your order page keeps its documents.',
        ...(c.documents.length ? [`Attached: ${c.documents.map((d) => `${docName(d.kind)} ${d.number}`).join(', ')}.`] : []),
      ],
      rows: [
        ['Order', c.orderPublicId],
        ['Reason', c.reason],
        ...(c.refunded > 0 ? ([['Refunded', money]] as [string, string][]) : []),
        ...c.documents.map((d) => [docName(d.kind), d.number] as [string, string]),
      ],
      action: { label: 'View your order', url: `${deps.config.publicUrl}/status/${c.orderPublicId}` },
    }),
    c.documents.map((d) => ({ kind: 'invoice' as const, id: d.id })),
  );
}
