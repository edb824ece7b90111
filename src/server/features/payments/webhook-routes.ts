import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { paymentEvents } from '../../db/schema/orders.ts';
import { badRequest, notFound, unauthorized } from '../../lib/app-error.ts';
import { hmacHex, isSameSignature } from '../../integrations/payments/provider.ts';
import { settlePayment } from './settle-payment.ts';
import { type RazorpayRefundEntity, applyRefundWebhook, isRefundEvent } from './refund-webhook.ts';
import {
  type SubscriptionWebhook,
  applySubscriptionWebhook,
  isSubscriptionEvent,
  subscriptionIdOf,
} from '../maintenance/subscription-webhook.ts';
import { route } from '../../lib/route.ts';
import { postPaymentWebhook } from '../../../contract/payments.ts';

interface RazorpayWebhook {
  event?: string;
  payload?: {
    payment?: { entity?: { id?: string; order_id?: string; amount?: number; currency?: string; status?: string } };
    order?: { entity?: { id?: string } };
    refund?: { entity?: RazorpayRefundEntity };
  };
}

const SETTLING_EVENTS = new Set(['payment.captured', 'order.paid']);

/**
 * POST /payment/webhook — Razorpay's signed events. Registered as its own plugin so that the raw
 * body parser (the signature covers the exact bytes) applies to this route only.
 */
export const paymentWebhookRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));

  route(
    app,
    postPaymentWebhook,
    {
      schema: { tags: ['payments'], summary: 'Razorpay webhook (signed with RAZORPAY_WEBHOOK_SECRET, idempotent by event id)' },
      config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
    },
    async (request) => {
      const secret = deps.config.RAZORPAY_WEBHOOK_SECRET;
      if (!secret) throw notFound('Webhooks are not configured.');
      const raw = request.body as Buffer;
      if (!Buffer.isBuffer(raw) || raw.length === 0) throw badRequest('Empty webhook body.');
      const signature = String(request.headers['x-razorpay-signature'] ?? '');
      if (!signature || !isSameSignature(hmacHex(secret, raw), signature)) throw unauthorized('Invalid webhook signature.');
      const eventId = String(request.headers['x-razorpay-event-id'] ?? '').slice(0, 100);
      if (!eventId) throw badRequest('Missing x-razorpay-event-id.');
      let event: RazorpayWebhook;
      try {
        event = JSON.parse(raw.toString('utf8')) as RazorpayWebhook;
      } catch {
        throw badRequest('The webhook body is not JSON.');
      }
      const type = String(event.event ?? 'unknown').slice(0, 60);
      const payment = event.payload?.payment?.entity;
      const providerOrderId = payment?.order_id ?? event.payload?.order?.entity?.id;
      // A subscription event (the maintenance plan) is logged under its subscription id.
      const subscription = isSubscriptionEvent(type);
      // A refund event (docs/decisions/321-cancel-and-refund.md) is logged under its refund id.
      const refund = isRefundEvent(type) ? event.payload?.refund?.entity : undefined;
      // The event id is claimed first, in the transaction that settles: of many
      // identical deliveries at once, one inserts the row and the others wait on its key, then find
      // it and answer "duplicate" without touching money. So the row records what the claimant did,
      // and a settlement that fails rolls the claim back for the provider's retry.
      const outcome = await deps.events.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(paymentEvents)
          .values({
            provider: 'razorpay',
            eventId,
            eventType: type,
            providerOrderId: (subscription ? subscriptionIdOf(event as SubscriptionWebhook) : refund ? refund.id : providerOrderId) ?? null,
            outcome: 'ignored',
          })
          .onConflictDoNothing()
          .returning({ id: paymentEvents.eventId });
        if (!claimed) return null;
        const record = (outcome: string) =>
          tx
            .update(paymentEvents)
            .set({ outcome })
            .where(and(eq(paymentEvents.provider, 'razorpay'), eq(paymentEvents.eventId, eventId)));
        if (subscription) {
          const r = await applySubscriptionWebhook(deps, tx, type, event as SubscriptionWebhook);
          await record(r);
          return r === 'applied' || r === 'charged' ? 'paid' : r;
        }
        if (isRefundEvent(type)) {
          const r = await applyRefundWebhook(deps, tx, type, refund);
          await record(r);
          return r === 'processed' || r === 'failed' ? 'paid' : r;
        }
        // Only success events move money state; payment.failed and friends never move it backwards.
        if (!SETTLING_EVENTS.has(type) || !providerOrderId || !payment?.id || payment.status !== 'captured') return 'ignored';
        const r = await settlePayment(
          deps,
          { providerOrderId, paymentId: payment.id, amount: payment.amount, currency: payment.currency },
          tx,
        );
        await record(r.outcome);
        return r.outcome;
      });
      if (outcome === null) return { status: 'duplicate' as const };
      return { status: outcome === 'paid' ? ('processed' as const) : ('ignored' as const) };
    },
  );
};
