import type { AppDeps } from '../../deps.ts';
import { mailRefundNeeded } from './refunds.ts';
import { askProvider } from './refund-flow.ts';

/** The founder is told of a payment to refund once the duplicate is stored; one stored with its refund is refunded at once. */
export function subscribeRefunds(deps: AppDeps) {
  deps.events.inTransaction('payment.duplicate', (e, tx) =>
    mailRefundNeeded(deps, tx, {
      orderPublicId: e.orderPublicId,
      kind: e.kind,
      amount: e.amount,
      currency: e.currency,
      paymentId: e.paymentId,
      customerEmail: e.customerEmail,
      paidAt: e.paidAt,
      automatic: Boolean(e.refundId),
    }),
  );
  // After the commit (the row exists): a provider that does not answer leaves it failed, listed with
  // a retry; a crash before this leaves it "never asked", listed too (docs/decisions/321-cancel-and-refund.md).
  deps.events.afterCommit('payment.duplicate', async (e) => {
    if (e.refundId) await askProvider(deps, e.refundId, e.orderPublicId);
  });
}
