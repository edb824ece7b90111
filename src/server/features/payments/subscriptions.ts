import type { AppDeps } from '../../deps.ts';
import { mailRefundNeeded } from './refunds.ts';

/** The founder is told of a payment to refund once the duplicate is stored. */
export function subscribeRefunds(deps: AppDeps) {
  deps.events.afterCommit('payment.duplicate', (e) =>
    mailRefundNeeded(deps, { orderPublicId: e.orderPublicId, kind: e.kind, amount: e.amount, currency: e.currency, paymentId: e.paymentId, customerEmail: e.customerEmail, paidAt: e.paidAt }),
  );
}
