import type { AppDeps } from '../../deps.ts';
import { invoiceOfInstallment } from '../invoices/invoice-queries.ts';
import { mailReceipt, mailStageCompleted } from './customer-mails.ts';

/**
 * The customer hears of every stage completed and of every payment received (with its tax invoice),
 * after commit: a rolled-back change sends nothing. Registered in app.ts before the other
 * subscribers, so the receipt and the stage e-mail leave before a reminder (decision 100).
 */
export function subscribeOrderMail(deps: AppDeps) {
  deps.events.afterCommit('payment.settled', async (e) => {
    // The invoice was numbered in the settling transaction (invoices' in-transaction subscriber),
    // so it is there now; the receipt carries it.
    const invoice = await invoiceOfInstallment(deps, e.installmentId);
    await mailReceipt(deps, e.customerEmail, {
      orderPublicId: e.orderPublicId,
      kind: e.kind,
      amount: e.amount,
      currency: e.currency,
      paymentId: e.paymentId,
      paidAt: e.paidAt,
      invoice: invoice ?? undefined,
    });
  });
  // A paid change: its receipt carries its document like an installment's (decision 250).
  deps.events.afterCommit('change.paid', async (e) => {
    const invoice = await invoiceOfInstallment(deps, e.installmentId);
    await mailReceipt(deps, e.customerEmail, {
      orderPublicId: e.orderPublicId,
      kind: 'change',
      amount: e.amount,
      currency: e.currency,
      paymentId: e.paymentId,
      paidAt: e.paidAt,
      invoice: invoice ?? undefined,
      change: { title: e.title, extraDays: e.extraDays },
    });
  });
  deps.events.afterCommit('stage.completed', (e) => mailStageCompleted(deps, e.customerEmail, e.orderPublicId, e.stage, e.note, e.at));
}
