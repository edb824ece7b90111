import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { postPaymentCreateOrder, postPaymentReconcile, postPaymentVerifyPayment } from '../../../contract/payments.ts';
import { currenciesResponse } from '../../../contract/pricing.ts';
import { currencyForCountry } from '../../../domain/currencies.ts';
import { PLAN } from '../../../domain/pricing.ts';
import { REFERRAL_CAP_BASE, REFERRAL_PERCENT } from '../../../domain/referral.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireAdmin, requireUser } from '../../plugins/auth.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { cachedRead } from '../../lib/cached-read.ts';
import { createPaymentOrder } from './create-payment-order.ts';
import { quoteAdvance } from './quote-advance.ts';
import { SUPPLY, priceLines } from '../../../domain/price-lines.ts';
import { reconcilePayments, reconcilePaymentsAsAdmin } from './reconcile-payments.ts';
import { verifyPayment } from './verify-payment.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { paymentWebhookRoutes } from './webhook-routes.ts';
import { testCheckoutRoutes } from './test-checkout-routes.ts';
import { route } from '../../lib/route.ts';
import { getPricingCurrencies, postPricingQuote } from '../../../contract/pricing.ts';

/**
 * Pricing, quotes and the two-stage payment. Money routes check the session onRequest,
 * so a stranger gets 401 before any body is parsed.
 */
export const paymentRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const ctx = moneyContext(deps);
  // The table comes from the configuration: one serialised answer per country, built on first ask.
  // (Sent as a JSON string, validated when built: `as never` tells the typed reply so.)
  const currencyTable = cachedRead({
    schema: currenciesResponse,
    ttlMs: 3600_000,
    maxKeys: 300,
    load: (country: string) => ({
      success: true as const,
      currencies: [...ctx.currencies],
      defaultCurrency: ctx.defaultCurrency.code,
      suggestedCurrency: currencyForCountry(country || undefined, ctx.currencies).code,
      plan: { id: PLAN.id, listPrice: PLAN.listPrice, price: PLAN.price },
      referral: { percent: REFERRAL_PERCENT, capBase: REFERRAL_CAP_BASE },
    }),
  });

  route(
    app,
    getPricingCurrencies,
    { schema: { tags: ['pricing'], summary: 'Currency table, plan prices and the currency for a country' } },
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send((await currencyTable.json((request.query.country ?? '').toUpperCase())) as never),
  );

  route(
    app,
    postPricingQuote,
    {
      schema: { tags: ['pricing'], summary: "The server's quote for a new order (amounts in minor units)" },
      onRequest: requireUser(deps.db),
      config: perSession(60),
    },
    async (request) => {
      const q = await quoteAdvance(deps, {
        userId: authOf(request).user.id,
        currency: request.body.currency,
        couponCode: request.body.couponCode,
      });
      return {
        success: true as const,
        quote: q.quote,
        symbol: q.currency.symbol,
        minorDigits: q.currency.minorDigits,
        coupon: q.coupon ? { code: q.coupon.code, kind: q.coupon.kind, percent: q.coupon.percent } : null,
        lines: priceLines({ ...q.quote, supply: SUPPLY, couponCode: q.coupon?.code ?? null, codeKind: q.coupon?.kind ?? null, tax: q.tax }),
        ...(q.couponError ? { couponError: q.couponError } : {}),
      };
    },
  );

  route(
    app,
    postPaymentCreateOrder,
    {
      schema: { tags: ['payments'], summary: 'Creates the provider order for one installment' },
      onRequest: requireUser(deps.db),
      config: perSession(20),
    },
    async (request) => createPaymentOrder(deps, authOf(request).user, request.body, request),
  );

  route(
    app,
    postPaymentVerifyPayment,
    {
      schema: { tags: ['payments'], summary: "Verifies the checkout's signature and records the payment" },
      onRequest: requireUser(deps.db),
      config: perSession(30),
    },
    async (request) => verifyPayment(deps, authOf(request).user.id, request.body),
  );

  route(
    app,
    postPaymentReconcile,
    { schema: { tags: ['payments'], summary: 'Admin: ask the provider about open payments now' }, onRequest: requireAdmin(deps) },
    async (request) => ({ success: true as const, ...(await reconcilePaymentsAsAdmin(deps, authOf(request).user.id)) }),
  );

  await app.register(paymentWebhookRoutes, { deps });
  await app.register(testCheckoutRoutes, { deps });

  const every = deps.config.PAYMENT_RECONCILE_SECONDS;
  if (every > 0 && ctx.provider.name === 'razorpay' && deps.config.NODE_ENV !== 'test') {
    const timer = setInterval(() => void reconcilePayments(deps).catch((err) => deps.log.error({ err }, 'reconciliation')), every * 1000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
};
