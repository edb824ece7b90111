import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { billingDetails } from '../../db/schema/invoices.ts';
import { issueInvoice } from './issue-invoice.ts';
import { issueChargeInvoice } from './issue-charge-invoice.ts';
import { issueChangeInvoice } from './issue-change-invoice.ts';

/**
 * Every captured installment gets its invoice in the settling transaction (decision 094): the
 * number is taken there, so a rolled-back settlement leaves no gap, and it is issued after the
 * settlement's own changes (a withdrawn discount), so it prints the final total and remaining.
 */
export function subscribeInvoices(deps: AppDeps) {
  deps.events.inTransaction('payment.settled', async (e, tx) => {
    const invoice = await issueInvoice(deps, tx, { installmentId: e.installmentId, paymentId: e.paymentId, paidAt: e.paidAt });
    // The receipt carries the invoice: it follows this second event (order-mail).
    await deps.events.publish(tx, 'payment.invoiced', { ...e, invoiceId: invoice.id, invoiceNumber: invoice.number });
  });
  // A maintenance-plan charge is invoiced the same way, from the same numbering.
  deps.events.inTransaction('maintenance.charged', async (e, tx) => {
    const invoice = await issueChargeInvoice(deps, tx, e);
    // Its receipt carries the invoice, like an installment's (docs/decisions/268-maintenance-charge-receipts.md).
    await deps.events.publish(tx, 'maintenance.invoiced', { ...e, invoiceId: invoice.id, invoiceNumber: invoice.number });
  });
  // A paid change request gets its document from the same numbering (decision 250), once the
  // changes feature has accepted it (`change.accepted` follows `change.paid` in the same transaction).
  deps.events.inTransaction('change.accepted', async (e, tx) => {
    const invoice = await issueChangeInvoice(deps, tx, e);
    await deps.events.publish(tx, 'change.invoiced', { ...e, invoiceId: invoice.id, invoiceNumber: invoice.number });
  });
  // A deleted person's billing details for future invoices go (decision 192); issued invoices keep
  // the buyer details frozen in their snapshot, as the law requires, and are never changed.
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx.delete(billingDetails).where(eq(billingDetails.userId, e.userId));
  });
}
