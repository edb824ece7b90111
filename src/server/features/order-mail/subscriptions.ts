import type { AppDeps } from '../../deps.ts';
import { mailDelivered, mailReceipt } from './customer-mails.ts';

/**
 * The customer hears at once of every payment received (with its tax invoice) and of the delivery
 * (with the website's link). Both mails are queued in the transaction of the change: a rolled-back
 * change sends nothing, a committed one cannot lose its mail. The receipt follows
 * `payment.invoiced` — the invoices feature's second event — so it carries the invoice without
 * relying on the order in which subscribers were registered.
 */
export function subscribeOrderMail(deps: AppDeps) {
  deps.events.inTransaction('payment.invoiced', async (e, tx) => {
    await mailReceipt(deps, tx, e.customerEmail, {
      orderPublicId: e.orderPublicId,
      kind: e.kind,
      amount: e.amount,
      currency: e.currency,
      paymentId: e.paymentId,
      paidAt: e.paidAt,
      invoice: { id: e.invoiceId, number: e.invoiceNumber },
    });
  });
  deps.events.inTransaction('order.delivered', async (e, tx) => {
    await mailDelivered(deps, tx, e.customerEmail, {
      orderPublicId: e.orderPublicId,
      deliveryUrl: e.deliveryUrl,
      at: e.at,
    });
  });
  // A maintenance month: its receipt carries its tax invoice (docs/decisions/268-maintenance-charge-receipts.md).
  deps.events.inTransaction('maintenance.invoiced', async (e, tx) => {
    await mailReceipt(deps, tx, e.customerEmail, {
      orderPublicId: e.orderPublicId,
      kind: 'maintenance',
      amount: e.amount,
      currency: e.currency,
      paymentId: e.paymentId,
      paidAt: e.paidAt,
      invoice: { id: e.invoiceId, number: e.invoiceNumber },
      period: { start: e.periodStart, end: e.periodEnd },
    });
  });
  // A paid change: its receipt carries its document like an installment's (decision 250), written
  // in the settling transaction once the document is issued.
  deps.events.inTransaction('change.invoiced', async (e, tx) => {
    await mailReceipt(deps, tx, e.customerEmail, {
      orderPublicId: e.orderPublicId,
      kind: 'change',
      amount: e.amount,
      currency: e.currency,
      paymentId: e.paymentId,
      paidAt: e.paidAt,
      invoice: { id: e.invoiceId, number: e.invoiceNumber },
      change: { title: e.title, extraDays: e.extraDays },
    });
  });
}
