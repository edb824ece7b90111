import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formatMoney } from '../../../domain/money.ts';
import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { escapeHtml } from '../mail/render-email.ts';
import { notFound } from '../../lib/app-error.ts';
import type { TestCheckoutProvider } from '../../integrations/payments/test-checkout.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { PRIMARY, testCheckoutHtml } from '../../integrations/payments/test-checkout-page.ts';

import { route } from '../../lib/route.ts';
import { getPaymentTestCheckout, postPaymentTestCheckout } from '../../../contract/payments.ts';

/**
 * The built-in test checkout page: with no Razorpay keys, /pay sends the customer here
 * instead of Razorpay's window. Plain HTML and a form — no script, so the strict CSP holds — and
 * labelled TEST MODE everywhere. "Pay" signs the result exactly as Razorpay does and returns to /pay,
 * which verifies it through the same payment/verify-payment call as a real payment.
 */
export const testCheckoutRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const ctx = moneyContext(deps);
  if (ctx.provider.name !== 'test') return;
  const provider = ctx.provider as TestCheckoutProvider;
  /** The attempt of a test provider order, with its order's public id (none for an unknown id). */
  const attemptOf = async (providerOrderId: string) => {
    const [attempt] = await deps.db
      .select({ kind: installments.kind, state: paymentAttempts.state, publicId: orders.publicId })
      .from(paymentAttempts)
      .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
      .innerJoin(orders, eq(orders.id, installments.orderId))
      .where(eq(paymentAttempts.providerOrderId, providerOrderId))
      .limit(1);
    return attempt;
  };
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 2048 }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  route(
    app,
    getPaymentTestCheckout,
    { schema: { tags: ['payments'], summary: 'Built-in test checkout page (test mode only)' } },
    async (request, reply) => {
      const order = provider.findOrder(request.params.orderId);
      if (!order) throw notFound('No such test payment.');
      const c = displayCurrency(ctx, order.currency);
      const amount = escapeHtml(formatMoney(order.amount, c));
      const brand = escapeHtml(deps.config.BRAND_NAME);
      // Back from /pay after paying returns here: say it is paid and lead to the order instead of
      // offering Pay again — Razorpay's own window cannot be reopened either.
      const attempt = await attemptOf(request.params.orderId);
      const paidOrder = attempt && attempt.state !== 'created' ? attempt.publicId : null;
      const action = `/api/v1/payment/test-checkout/${encodeURIComponent(order.id)}`;
      const body = paidOrder
        ? `<h1 style="margin:0 0 8px;font-size:22px;color:#fff">Payment complete</h1>
<p role="status" style="margin:0 0 20px;color:#c4c4d0" data-testid="test-checkout-paid">This test payment of
<strong style="color:#fff">${amount}</strong> is already paid. Nothing more to do here.</p>
<a href="/status/${escapeHtml(encodeURIComponent(paidOrder))}" style="${PRIMARY};display:block;text-align:center;text-decoration:none">See your order</a>`
        : `<h1 style="margin:0 0 8px;font-size:22px;color:#fff">Test checkout</h1>
<p style="margin:0 0 20px;color:#c4c4d0">${brand} has no payment provider configured, so this built-in page stands in for Razorpay's checkout.</p>
<dl style="display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0 0 24px">
<dt style="color:#c4c4d0">Amount</dt><dd style="margin:0;color:#fff;font-weight:700" data-testid="test-checkout-amount">${amount}</dd>
<dt style="color:#c4c4d0">Receipt</dt><dd style="margin:0">${escapeHtml(order.receipt)}</dd>
</dl>
<form method="post" action="${escapeHtml(action)}" style="display:flex;gap:12px;flex-wrap:wrap">
<button name="action" value="pay" style="${PRIMARY};flex:1">Pay ${amount} (test)</button>
<button name="action" value="cancel"
  style="padding:12px 16px;border:1px solid #3a3a4a;border-radius:10px;background:transparent;color:#e5e7eb;font:inherit;font-size:16px;cursor:pointer"
>Cancel</button>
</form>`;
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(testCheckoutHtml(brand, body));
    },
  );

  route(
    app,
    postPaymentTestCheckout,
    {
      schema: { tags: ['payments'], summary: 'Completes or cancels a test payment and returns to /pay' },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const attempt = await attemptOf(request.params.orderId);
      // A paid order cannot be paid again (as on Razorpay): a stale page's Pay leads to the order.
      if (attempt && attempt.state !== 'created') return reply.redirect(`/status/${encodeURIComponent(attempt.publicId)}`, 303);
      if (request.body.action === 'cancel') {
        // Back to the payment that was cancelled: the remaining one keeps its order.
        const order = attempt?.kind === 'remaining' ? `&order=${encodeURIComponent(attempt.publicId)}` : '';
        return reply.redirect(`/pay?cancelled=1${order}`, 303);
      }
      const result = provider.pay(request.params.orderId);
      if (!result) throw notFound('No such test payment.');
      return reply.redirect(`/pay?${new URLSearchParams(result).toString()}`, 303);
    },
  );
};
