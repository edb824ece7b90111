import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import type { ChangePaid } from '../../lib/domain-events.ts';
import { issueOneOffInvoice } from './issue-charge-invoice.ts';
import type { IssuedInvoice } from './issue-invoice.ts';

/**
 * A paid change request's document (docs/decisions/250-change-requests.md): a one-off tax invoice
 * with the plan's tax rules (docs/decisions/221-gst-documents.md) — "INVOICE" when not registered,
 * the TEST series for a test-mode payment — in the settling transaction. Idempotent per change
 * installment. The amount paid includes the tax quoted at the checkout.
 */
export function issueChangeInvoice(deps: AppDeps, tx: Tx, e: ChangePaid): Promise<IssuedInvoice> {
  return issueOneOffInvoice(deps, tx, {
    orderId: e.orderId,
    description: `Change to the website: ${e.title}`,
    amountPaid: e.amount,
    currency: e.currency,
    paymentId: e.paymentId,
    paidAt: e.paidAt,
    testMode: e.testMode,
    change: { id: e.changeId, title: e.title, installmentId: e.installmentId },
  });
}
