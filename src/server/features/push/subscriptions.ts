import { eq, inArray } from 'drizzle-orm';
import { isPaymentStage, STAGES, stageDoneText } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { notificationPreferences, pushSent, pushSubscriptions } from '../../db/schema/notifications.ts';
import type { PushSender } from '../../integrations/push/web-push.ts';
import { agencyWithDevices, customerWithDevices, PUSH_DELIVER, queuePush, type PushJob, type PushNotice } from './queue-push.ts';

// What is pushed to whom (docs/decisions/343-web-push.md), from the events the features already
// publish: each reaction runs in the publisher's transaction and stores its pushes as jobs there.
// A push says what happened and links to it — never a message's text, an amount or a name.

const agencyOrder = (publicId: string) => `/admin/orders/${publicId}`;
const customerOrder = (publicId: string, tab?: string) => `/status/${publicId}${tab ? `?tab=${tab}` : ''}`;

export function subscribePush(deps: AppDeps, sender: PushSender | null) {
  const { events } = deps;
  const toAgency = async (tx: Tx, notice: PushNotice, ownersOnly = false) =>
    queuePush(deps, tx, await agencyWithDevices(tx, ownersOnly), notice);
  const toCustomer = async (tx: Tx, orderId: string, notice: PushNotice) =>
    queuePush(deps, tx, await customerWithDevices(tx, orderId), notice);

  // — the agency —
  events.inTransaction('chat.human', async (e, tx) => {
    await toAgency(tx, {
      kind: 'chat_human',
      title: 'A visitor asks for you',
      body: 'Someone is waiting in the live chat.',
      url: `/adminChat?chat=${e.chatId}`,
      dedupeKey: `chat:${e.chatId}`,
      at: e.at,
      urgent: true,
    });
  });
  events.inTransaction('payment.settled', async (e, tx) => {
    const which = e.kind === 'advance' ? 'advance' : 'remaining payment';
    await toAgency(
      tx,
      {
        kind: 'order_paid',
        title: `Order ${e.orderPublicId} is paid`,
        body: `The ${which} arrived.`,
        url: agencyOrder(e.orderPublicId),
        dedupeKey: `paid:${e.paymentId}`,
        at: e.paidAt,
      },
      true,
    );
    await toCustomer(tx, e.orderId, {
      kind: 'payment_receipt',
      title: 'Payment received',
      body: `Thank you — your ${which} for order ${e.orderPublicId} is received.`,
      url: customerOrder(e.orderPublicId, 'payments'),
      dedupeKey: `receipt:${e.paymentId}`,
      at: e.paidAt,
    });
  });
  events.inTransaction('change.paid', async (e, tx) => {
    await toAgency(
      tx,
      {
        kind: 'order_paid',
        title: `Order ${e.orderPublicId}: a change is paid`,
        body: 'A quoted change was paid.',
        url: agencyOrder(e.orderPublicId),
        dedupeKey: `paid:${e.paymentId}`,
        at: e.paidAt,
      },
      true,
    );
  });
  events.inTransaction('order.message', async (e, tx) => {
    if (e.sender === 'customer')
      await toAgency(tx, {
        kind: 'customer_message',
        title: `Order ${e.orderPublicId}`,
        body: 'A new message from the customer.',
        url: agencyOrder(e.orderPublicId),
        dedupeKey: `message:${e.messageId}`,
        at: e.at,
      });
    else
      await toCustomer(tx, e.orderId, {
        kind: 'agency_reply',
        title: `Order ${e.orderPublicId}`,
        body: 'The team sent you a message.',
        url: customerOrder(e.orderPublicId, 'messages'),
        dedupeKey: `message:${e.messageId}`,
        at: e.at,
      });
  });
  events.inTransaction('file.uploaded', async (e, tx) => {
    if (e.uploadedBy !== 'customer') return;
    await toAgency(tx, {
      kind: 'customer_message',
      title: `Order ${e.orderPublicId}`,
      body: 'A new file from the customer.',
      url: agencyOrder(e.orderPublicId),
      dedupeKey: `file:${e.fileId}`,
      at: e.at,
    });
  });
  events.inTransaction('support.message', async (e, tx) => {
    if (e.sender === 'customer')
      await toAgency(tx, {
        kind: 'customer_message',
        title: `Support: order ${e.orderPublicId}`,
        body: 'The customer wrote on a support request.',
        url: `/admin/support/${e.requestId}`,
        dedupeKey: `support-message:${e.messageId}`,
        at: e.at,
      });
    else
      await toCustomer(tx, e.orderId, {
        kind: 'agency_reply',
        title: 'Support',
        body: `The team answered your support request on order ${e.orderPublicId}.`,
        url: customerOrder(e.orderPublicId, 'support'),
        dedupeKey: `support-message:${e.messageId}`,
        at: e.at,
      });
  });
  events.inTransaction('support.request', async (e, tx) => {
    if (e.from !== null || e.by !== 'customer') return;
    await toAgency(tx, {
      kind: 'support_request',
      title: `Support: order ${e.orderPublicId}`,
      body: 'A new support request.',
      url: `/admin/support/${e.requestId}`,
      dedupeKey: `support:${e.requestId}`,
      at: e.at,
    });
  });
  events.inTransaction('support.overdue', async (e, tx) => {
    await toAgency(tx, {
      kind: 'support_request',
      title: `Support: order ${e.orderPublicId}`,
      body: 'A support request is waiting past its response target.',
      url: `/admin/support/${e.requestId}`,
      dedupeKey: `support-overdue:${e.requestId}:${e.waitingSince.toISOString()}`,
      at: e.at,
    });
  });
  events.inTransaction('review.decided', async (e, tx) => {
    const what = e.decision === 'approve' ? 'approved' : 'asked for changes on';
    await toAgency(tx, {
      kind: 'review_decided',
      title: `Order ${e.orderPublicId}`,
      body: `The customer ${what} a design review.`,
      url: agencyOrder(e.orderPublicId),
      dedupeKey: `review-decided:${e.reviewId}`,
      at: e.at,
    });
  });
  events.inTransaction('site.down', async (e, tx) => {
    const host = new URL(e.url).host;
    const key = `site-down:${e.orderId}:${host}:${e.at.getTime()}`;
    await toAgency(tx, {
      kind: 'site_down',
      title: 'A watched site is down',
      body: `${host} (order ${e.orderPublicId}) is not answering.`,
      url: '/admin/sites',
      dedupeKey: key,
      at: e.at,
      urgent: true,
    });
    if (e.customerNotices)
      await toCustomer(tx, e.orderId, {
        kind: 'site_down',
        title: 'Your website is not answering',
        body: `We are on it: ${host}.`,
        url: customerOrder(e.orderPublicId, 'support'),
        dedupeKey: key,
        at: e.at,
        urgent: true,
      });
  });

  // — the customer —
  events.inTransaction('review.opened', async (e, tx) => {
    await toCustomer(tx, e.orderId, {
      kind: 'review_opened',
      title: `Order ${e.orderPublicId}`,
      body: 'A design review is ready for you.',
      url: customerOrder(e.orderPublicId, 'reviews'),
      dedupeKey: `review-opened:${e.reviewId}`,
      at: e.at,
    });
  });
  events.inTransaction('stage.completed', async (e, tx) => {
    // A payment's stages come with its receipt.
    if (isPaymentStage(e.stage)) return;
    const name = stageDoneText(STAGES[e.stage - 1] ?? `Stage ${e.stage}`);
    await toCustomer(tx, e.orderId, {
      kind: 'stage_completed',
      title: `Order ${e.orderPublicId}`,
      body: name,
      url: customerOrder(e.orderPublicId),
      dedupeKey: `stage:${e.orderId}:${e.stage}:${e.at.getTime()}`,
      at: e.at,
    });
  });
  events.inTransaction('change.updated', async (e, tx) => {
    if (e.state !== 'quoted' || e.by !== 'agency') return;
    await toCustomer(tx, e.orderId, {
      kind: 'change_quoted',
      title: `Order ${e.orderPublicId}`,
      body: 'A change is quoted and waits for your decision.',
      url: customerOrder(e.orderPublicId, 'changes'),
      dedupeKey: `change:${e.changeId}:${e.at.getTime()}`,
      at: e.at,
    });
  });
  events.inTransaction('payment.due', async (e, tx) => {
    await toCustomer(tx, e.orderId, {
      kind: 'payment_due',
      title: `Order ${e.orderPublicId}`,
      body: 'The remaining payment is due.',
      url: customerOrder(e.orderPublicId, 'payments'),
      dedupeKey: `due:${e.reminderId}`,
      at: e.at,
    });
  });

  // A deleted person's devices and choices go with their account (decision 192).
  events.inTransaction('account.deleted', async (e, tx) => {
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, e.userId));
    await tx.delete(pushSent).where(eq(pushSent.userId, e.userId));
    await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, e.userId));
  });

  deps.jobs.handle(PUSH_DELIVER, async (payload) => {
    const job = payload as unknown as PushJob;
    // Push switched off since the job was stored: nothing can be sent, and nothing waits for it.
    if (!sender) return;
    const [device] = await deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, job.subscriptionId));
    // Removed meanwhile (by the person, or as gone after another push).
    if (!device) return;
    const outcome = await sender.send(device, JSON.stringify(job.message), { ttlSeconds: job.ttlSeconds, urgency: job.urgency });
    if (outcome.kind === 'sent')
      await deps.db.update(pushSubscriptions).set({ lastSentAt: new Date() }).where(eq(pushSubscriptions.id, device.id));
    // The push service no longer knows it: the browser unsubscribed or the subscription expired.
    else if (outcome.kind === 'gone') await deps.db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, [device.id]));
    else if (outcome.kind === 'refused')
      deps.log.warn({ status: outcome.status, service: new URL(device.endpoint).host }, `push refused: ${outcome.detail}`);
    else throw new Error(outcome.detail);
  });
}
