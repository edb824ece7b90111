import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/app-error.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { escapeHtml } from '../mail/render-email.ts';
import { TEST_CHECKOUT_BUTTON, testCheckoutHtml } from '../../integrations/payments/test-checkout-page.ts';
import { cancelAtPeriodEnd, keepPlan, subscribe, verifySubscription } from './subscribe.ts';
import { authoriseTestSubscription, chargeTestSubscription, findTestSubscription, testProviderOf } from './test-charges.ts';
import { route } from '../../lib/route.ts';
import {
  getPaymentTestCheckoutSubscription,
  postOrdersMaintenanceSubscribe,
  postOrdersMaintenanceVerify,
  postOrdersMaintenanceCancel,
  postOrdersMaintenanceResume,
  postPaymentTestCheckoutSubscription,
} from '../../../contract/maintenance.ts';

// The maintenance plan's routes (decision 175). Customer routes: the bearer
// token and the caller's own delivered order, else 404.

export const maintenanceRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['maintenance'];
  const guard = { onRequest: requireUser(deps.db) };

  route(
    app,
    postOrdersMaintenanceSubscribe,
    {
      schema: {
        tags,
        summary: 'Opens the monthly maintenance subscription of a delivered order (what Checkout needs); acceptTerms: true is required',
      },
      ...guard,
      config: perSession(20),
    },
    async (request) =>
      subscribe(deps, authOf(request).user.id, request.params.orderId, {
        acceptTerms: request.body.acceptTerms,
        client: { ip: request.ip, headers: request.headers },
      }),
  );

  route(
    app,
    postOrdersMaintenanceVerify,
    { schema: { tags, summary: "Verifies Checkout's signature over payment_id|subscription_id" }, ...guard, config: perSession(30) },
    async (request) => ({ plan: await verifySubscription(deps, authOf(request).user.id, request.params.orderId, request.body) }),
  );

  route(
    app,
    postOrdersMaintenanceCancel,
    {
      schema: { tags, summary: 'Cancels the plan at the end of the paid period (again: the same answer)' },
      ...guard,
      config: perSession(20),
    },
    async (request) => ({ plan: await cancelAtPeriodEnd(deps, authOf(request).user.id, request.params.orderId) }),
  );

  route(
    app,
    postOrdersMaintenanceResume,
    {
      schema: {
        tags,
        summary: 'Takes back "cancel at period end" while the paid period runs (again: the same answer; 409 where the provider cannot)',
      },
      ...guard,
      config: perSession(20),
    },
    async (request) => ({ plan: await keepPlan(deps, authOf(request).user.id, request.params.orderId) }),
  );

  await app.register(testSubscriptionCheckout, { deps });
};

/**
 * The built-in test checkout's subscription page (test mode only, like /payment/test-checkout/:id):
 * "Subscribe" authorises the first charge — applied at once, as Razorpay's webhook would — and
 * returns to the order page with Checkout's three signed fields, which the page sends to …/verify.
 */
const testSubscriptionCheckout: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const provider = testProviderOf(deps);
  if (!provider) return;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 2048 }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const statusPage = (publicId: string, query = '') => `/status/${encodeURIComponent(publicId)}${query}`;

  route(
    app,
    getPaymentTestCheckoutSubscription,
    { schema: { tags: ['payments'], summary: 'Built-in test checkout for a maintenance subscription (test mode only)' } },
    async (request, reply) => {
      const found = await findTestSubscription(deps, request.params.subscriptionId);
      if (!found) throw notFound('No such test subscription.');
      const { sub, orderPublicId } = found;
      const currency = displayCurrency(moneyContext(deps), sub.currency);
      const price = escapeHtml(formatMoney(sub.amount, currency));
      // The month's total is the plan's quote: its price and the GST on it (docs/decisions/322-maintenance-plan-gst.md).
      const gst = sub.price !== null && sub.price < sub.amount ? ` (${escapeHtml(formatMoney(sub.price, currency))} + GST)` : '';
      const started = sub.state !== 'created' && sub.state !== 'authenticated';
      const body = started
        ? `<h1 style="margin:0 0 8px;font-size:22px;color:#fff">Subscribed</h1>
<p role="status" style="margin:0 0 20px;color:#c4c4d0" data-testid="test-checkout-subscribed">This test subscription of
<strong style="color:#fff">${price}</strong> a month is already running.</p>
<a href="${escapeHtml(statusPage(orderPublicId))}" style="${TEST_CHECKOUT_BUTTON};display:block;text-align:center;text-decoration:none">See your order</a>`
        : `<h1 style="margin:0 0 8px;font-size:22px;color:#fff">Maintenance plan</h1>
<p style="margin:0 0 20px;color:#c4c4d0">Monthly maintenance of order ${escapeHtml(orderPublicId)}:
<strong style="color:#fff" data-testid="test-checkout-amount">${price}</strong>${gst} a month, ${
            sub.startsAt && sub.startsAt > new Date()
              ? `first charged on ${escapeHtml(sub.startsAt.toISOString().slice(0, 10))} (nothing now)`
              : 'charged now'
          } and then every month until cancelled.</p>
<form method="post" style="display:flex;gap:12px;flex-wrap:wrap"
  action="/api/v1/payment/test-checkout/subscription/${escapeHtml(encodeURIComponent(sub.providerSubscriptionId))}">
<button name="action" value="subscribe" style="${TEST_CHECKOUT_BUTTON};flex:1">Subscribe for ${price} a month (test)</button>
<button name="action" value="cancel"
  style="padding:12px 16px;border:1px solid #3a3a4a;border-radius:10px;background:transparent;color:#e5e7eb;font:inherit;font-size:16px;cursor:pointer"
>Cancel</button>
</form>`;
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(testCheckoutHtml(escapeHtml(deps.config.BRAND_NAME), body));
    },
  );

  route(
    app,
    postPaymentTestCheckoutSubscription,
    {
      schema: { tags: ['payments'], summary: 'Authorises (first charge) or leaves a test subscription and returns to the order' },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const found = await findTestSubscription(deps, request.params.subscriptionId);
      if (!found) throw notFound('No such test subscription.');
      const { sub, orderPublicId } = found;
      // Leaving the checkout says so on the order page (?plan=checkout-cancelled): no plan, no charge.
      if (request.body.action === 'cancel') return reply.redirect(statusPage(orderPublicId, '?tab=support&plan=checkout-cancelled'), 303);
      if (sub.state !== 'created' && sub.state !== 'authenticated') return reply.redirect(statusPage(orderPublicId), 303);
      const signed = provider.paySubscription(sub.providerSubscriptionId);
      // A plan that starts later is only authorised now, like Razorpay's future start_at (decision 233).
      if (sub.startsAt && sub.startsAt > new Date()) await authoriseTestSubscription(deps, sub.providerSubscriptionId);
      else await chargeTestSubscription(deps, sub.providerSubscriptionId, new Date(), signed.razorpay_payment_id);
      return reply.redirect(statusPage(orderPublicId, `?${new URLSearchParams(signed).toString()}`), 303);
    },
  );
};
