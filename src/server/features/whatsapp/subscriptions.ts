import { sql } from 'drizzle-orm';
import { STAGES, isPaymentStage, stageDoneText } from '../../../domain/tracker.ts';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { enqueueWhatsApp } from './outbox.ts';

// Which order events become WhatsApp notices (docs/decisions/345-whatsapp-notices-and-consent.md),
// each written in its event's transaction (outbox.ts). The customer hears of a payment, a stage, a
// design to review, the team's replies, a payment due (the reminders' `payment.due`) and their site
// going down (site care's `site.down`, when they keep its notices on).

export function subscribeWhatsApp(deps: AppDeps) {
  const { events } = deps;
  const receipt = async (e: { orderId: string; paymentId: string; amount: number; currency: string; invoiceNumber: string }, tx: Tx) => {
    const amount = formatMoney(e.amount, displayCurrency(moneyContext(deps), e.currency));
    await enqueueWhatsApp(deps, tx, {
      orderId: e.orderId,
      template: 'payment_receipt',
      refId: e.paymentId,
      params: (c) => [c.name, c.orderPublicId, amount, e.invoiceNumber, c.link],
    });
  };
  events.inTransaction('payment.invoiced', receipt);
  events.inTransaction('maintenance.invoiced', receipt);
  // A payment's own stages travel with its receipt.
  events.inTransaction('stage.completed', async (e, tx) => {
    if (isPaymentStage(e.stage)) return;
    const stage = stageDoneText(STAGES[e.stage - 1] ?? `Stage ${e.stage}`);
    await enqueueWhatsApp(deps, tx, {
      orderId: e.orderId,
      template: 'stage_update',
      refId: `${e.stage}:${e.at.toISOString()}`,
      params: (c) => [c.name, c.orderPublicId, stage, c.link],
    });
  });
  events.inTransaction('review.opened', async (e, tx) => {
    const round = `${e.kind === 'ui' ? 'UI' : 'Final'} design review, round ${e.round}`;
    await enqueueWhatsApp(deps, tx, {
      orderId: e.orderId,
      template: 'review_ready',
      refId: e.reviewId,
      params: (c) => [c.name, c.orderPublicId, round, c.link],
    });
  });
  // The team's replies, on the order's thread or a support request: never their text (a phone is not the app's access check).
  events.inTransaction('order.message', async (e, tx) => {
    if (e.sender !== 'agency') return;
    await enqueueWhatsApp(deps, tx, {
      orderId: e.orderId,
      template: 'support_reply',
      refId: e.messageId,
      params: (c) => [c.name, c.orderPublicId, c.link],
    });
  });
  events.inTransaction('support.message', async (e, tx) => {
    if (e.sender !== 'agency') return;
    await enqueueWhatsApp(deps, tx, {
      orderId: e.orderId,
      template: 'support_reply',
      refId: e.messageId,
      params: (c) => [c.name, c.orderPublicId, c.link],
    });
  });
  events.inTransaction('payment.due', async (e, tx) => {
    await enqueueWhatsApp(deps, tx, {
      orderId: e.orderId,
      template: 'payment_due',
      refId: e.reminderId,
      params: (c) => [c.name, c.orderPublicId, e.amountText, c.link],
    });
  });
  events.inTransaction('site.down', async (e, tx) => {
    if (!e.customerNotices) return;
    await enqueueWhatsApp(deps, tx, {
      orderId: e.orderId,
      template: 'site_down',
      refId: `${e.url}@${e.at.toISOString()}`,
      params: (c) => [c.name, c.orderPublicId, e.url, c.link],
    });
  });
  // A deleted person gets nothing more, and their consent records and numbers go (decision 192).
  events.inTransaction('account.deleted', async (e, tx) => {
    await tx.execute(sql`delete from whatsapp_messages where user_id = ${e.userId}`);
    await tx.execute(sql`delete from whatsapp_consents where user_id = ${e.userId}`);
  });
}
