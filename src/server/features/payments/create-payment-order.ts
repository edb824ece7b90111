import { randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { PLAN } from '../../../domain/pricing.ts';
import { toMinor } from '../../../domain/money.ts';
import type { CreatePaymentOrderResponse } from '../../../contract/payments.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { ProviderUnavailableError, isTestMode, type ProviderOrder } from '../../integrations/payments/provider.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { quoteAdvance } from './quote-advance.ts';
import { cancelledOrderConflict } from './cancel.ts';
import { orderTaxOrNone, taxOfCharge } from '../../lib/tax-context.ts';
import { holdCouponUse } from '../coupons/coupon-limits.ts';
import { firstTouchOfCustomer, touchColumns } from '../funnel/visitors.ts';
import { recordTermsAcceptance } from '../terms/terms-acceptance.ts';
import { changeForPayment, lockQuoteVersion, recordChangeAcceptance } from '../changes/changes.ts';

export interface CreatePaymentOrderInput {
  kind: 'advance' | 'remaining' | 'change';
  changeId?: string;
  couponCode?: string;
  orderId?: string;
  currency?: string;
  amount?: number;
  /** The advance needs the customer's "I agree to the Terms and Conditions". */
  acceptTerms?: boolean;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Public order ids are random, short enough for a receipt (≤ 40 chars). */
export const newOrderPublicId = () => 'ORD' + [...randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('');

const providerDown = () =>
  new AppError('BAD_GATEWAY', 'The payment provider is not answering right now. Nothing was charged; please try again in a minute.');

/** A client-sent amount is in major units (spec §7) and must be exactly the server's quote. */
function assertAmount(sentMajor: number | undefined, quotedMinor: number, digits: number) {
  if (sentMajor === undefined) return;
  if (toMinor(sentMajor, { minorDigits: digits }) !== quotedMinor) {
    throw badRequest('The amount does not match our quote. Please reload the page and try again.');
  }
}

/** payment/create-order: one provider order for one installment, amounts from the server only. */
export async function createPaymentOrder(
  deps: AppDeps,
  user: SessionUser,
  input: CreatePaymentOrderInput,
  /** The request placing it, for the order's first-touch source when the customer has none (decision 097). */
  visitor?: Pick<FastifyRequest, 'headers' | 'ip'>,
): Promise<CreatePaymentOrderResponse> {
  const ctx = moneyContext(deps);
  const common = {
    provider: ctx.provider.name,
    key: ctx.provider.keyId,
    checkoutUrl: deps.config.RAZORPAY_CHECKOUT_URL,
    name: deps.config.BRAND_NAME,
    prefill: { email: user.email, name: user.name ?? '' },
  };

  async function openProviderOrder(amount: number, currency: string, receipt: string): Promise<ProviderOrder> {
    try {
      return await ctx.provider.createOrder({ amount, currency, receipt, notes: { receipt } });
    } catch (err) {
      if (err instanceof ProviderUnavailableError) {
        deps.log.warn({ receipt }, err.message);
        throw providerDown();
      }
      throw err;
    }
  }

  /** The checkout opened for an installment: one attempt row, in the caller's transaction (a change's with its quote version). */
  function recordAttempt(tx: Tx, installmentId: string, po: ProviderOrder, quoteVersion: number | null = null) {
    return tx.insert(paymentAttempts).values({
      installmentId,
      provider: ctx.provider.name,
      testMode: isTestMode(ctx.provider),
      providerOrderId: po.id,
      amount: po.amount,
      currency: po.currency,
      receipt: po.receipt,
      quoteVersion,
    });
  }

  if (input.kind === 'advance') {
    if (input.orderId) throw badRequest('The advance starts a new order; do not send orderId.');
    if (input.acceptTerms !== true)
      throw badRequest('Please agree to the Terms and Conditions before paying the advance (acceptTerms: true).');
    const q = await quoteAdvance(deps, { userId: user.id, currency: input.currency, couponCode: input.couponCode });
    if (q.couponError) throw badRequest(q.couponError);
    assertAmount(input.amount, q.quote.advance, q.currency.minorDigits);
    const publicId = newOrderPublicId();
    // The provider is asked first: if it is down nothing is written, and a retry starts clean.
    const po = await openProviderOrder(q.quote.advance, q.currency.code, `${publicId}-A`);
    const touch = await firstTouchOfCustomer(deps, user.id, visitor);
    await deps.db.transaction(async (tx) => {
      // Atomic with the order row: the code's limits are counted under a lock of the coupon row.
      const couponHoldUntil = q.coupon ? await holdCouponUse(tx, q.coupon.id, user.id) : null;
      const [order] = await tx
        .insert(orders)
        .values({
          publicId,
          userId: user.id,
          planId: PLAN.id,
          currency: q.currency.code,
          listPrice: q.quote.listPrice,
          price: q.quote.price,
          discountPercent: q.quote.discountPercent,
          discount: q.quote.discount,
          fee: q.quote.fee,
          total: q.quote.total,
          tax: q.tax,
          couponId: q.coupon?.id ?? null,
          couponCode: q.coupon?.code ?? null,
          referrerUserId: q.coupon?.kind === 'referral' ? q.coupon.ownerUserId : null,
          couponHoldUntil,
          ...touchColumns(touch),
        })
        .returning({ id: orders.id });
      // Chargeback evidence, stored with the order it is about (decision 146).
      await recordTermsAcceptance(tx, { id: order!.id, publicId }, new Date(), visitor);
      const [adv] = await tx
        .insert(installments)
        .values([
          { orderId: order!.id, kind: 'advance', amount: q.quote.advance, currency: q.currency.code, state: 'pending' },
          { orderId: order!.id, kind: 'remaining', amount: q.quote.remaining, currency: q.currency.code, state: 'due' },
        ])
        .returning({ id: installments.id });
      await recordAttempt(tx, adv!.id, po);
    });
    return { ...po, ...common, kind: 'advance', orderId: null, quote: q.quote };
  }

  if (input.couponCode?.trim()) throw badRequest('A code can only be applied to the advance payment.');
  if (input.kind === 'change') return createChangePaymentOrder();
  if (!input.orderId) throw badRequest('orderId is required to pay the remaining amount.');
  const [row] = await deps.db
    .select({ order: orders, remaining: installments })
    .from(orders)
    .innerJoin(installments, and(eq(installments.orderId, orders.id), eq(installments.kind, 'remaining')))
    .where(and(eq(orders.publicId, input.orderId), eq(orders.userId, user.id)))
    .limit(1);
  // Another customer's order and a draft look the same as no order at all (no leak).
  if (!row) throw notFound('Order not found.');
  if (row.order.state === 'awaiting_advance') throw conflict('Pay the advance first.');
  if (row.order.state === 'cancelled') throw cancelledOrderConflict();
  if (row.remaining.state === 'paid') throw conflict('The remaining amount is already paid.');
  if (input.currency && input.currency !== row.order.currency) throw badRequest(`This order is in ${row.order.currency}.`);
  assertAmount(input.amount, row.remaining.amount, displayCurrency(ctx, row.order.currency).minorDigits);
  const po = await openProviderOrder(row.remaining.amount, row.order.currency, `${row.order.publicId}-R`);
  await deps.db.transaction(async (tx) => {
    await recordAttempt(tx, row.remaining.id, po);
    await tx
      .update(installments)
      .set({ state: 'pending' })
      .where(and(eq(installments.id, row.remaining.id), eq(installments.state, 'due')));
  });
  // The quote the order was created with (a billing change since does not change it).
  const tax = orderTaxOrNone(row.order.tax, row.order.total);
  const quote = {
    currency: row.order.currency,
    listPrice: row.order.listPrice,
    price: row.order.price,
    discountPercent: row.order.discountPercent,
    discount: row.order.discount,
    afterDiscount: row.order.price - row.order.discount,
    fee: row.order.fee,
    taxableValue: tax.taxableValue,
    taxes: tax.taxes,
    supplyType: tax.supplyType,
    placeOfSupply: tax.placeOfSupply,
    total: row.order.total,
    advance: row.order.total - row.remaining.amount,
    remaining: row.remaining.amount,
  };
  return { ...po, ...common, kind: 'remaining', orderId: row.order.publicId, quote };

  /**
   * A quoted change, paid like an installment of its own (kind 'change', one per change): the
   * amount is the quote's — an amount in the body must match it — and "I agree to this change" is
   * recorded with the checkout (docs/decisions/250-change-requests.md).
   */
  async function createChangePaymentOrder(): Promise<CreatePaymentOrderResponse> {
    if (!input.orderId || !input.changeId) throw badRequest('orderId and changeId are required to pay a change.');
    if (input.acceptTerms !== true) throw badRequest('Please tick "I agree to this change" before paying (acceptTerms: true).');
    const { order, change } = await changeForPayment(deps.db, user.id, input.orderId, input.changeId);
    if (input.currency && input.currency !== change.currency) throw badRequest(`This order is in ${change.currency}.`);
    // The change's amount is net; the tax follows the plan's rules for this buyer (docs/decisions/220-gst-tax-rules.md).
    const tax = await deps.db.transaction((tx) => taxOfCharge(deps, tx, user.id, change.currency, change.amount, new Date()));
    const total = tax.taxableValue + tax.taxes.reduce((sum, t) => sum + t.amount, 0);
    assertAmount(input.amount, total, displayCurrency(ctx, change.currency).minorDigits);
    const [paid] = await deps.db
      .select({ state: installments.state })
      .from(installments)
      .where(and(eq(installments.changeId, change.id), eq(installments.state, 'paid')));
    if (paid) throw conflict('This change is already paid.');
    const po = await openProviderOrder(total, change.currency, `${order.orderPublicId}-C${change.id.slice(0, 8)}`);
    await deps.db.transaction(async (tx) => {
      // The price is the one of the version read above: re-quoted meanwhile, nothing is recorded
      // (docs/decisions/332-change-quote-version.md).
      await lockQuoteVersion(tx, change);
      const [inst] = await tx
        .insert(installments)
        .values({ orderId: order.orderId, kind: 'change', changeId: change.id, amount: total, currency: change.currency, state: 'pending' })
        .onConflictDoUpdate({ target: installments.changeId, set: { amount: total }, setWhere: ne(installments.state, 'paid') })
        .returning({ id: installments.id });
      // Paid meanwhile (another tab): this checkout still opens; its payment is refunded like a duplicate.
      const installmentId =
        inst?.id ?? (await tx.select({ id: installments.id }).from(installments).where(eq(installments.changeId, change.id)))[0]!.id;
      await recordAttempt(tx, installmentId, po, change.quoteVersion);
      await recordChangeAcceptance(tx, change, order.orderPublicId, new Date(), visitor);
    });
    // The change's own quote: its net amount and the tax on it are the whole of this payment (no fee, no code applies).
    const a = change.amount;
    const quote = {
      currency: change.currency,
      listPrice: a,
      price: a,
      discountPercent: 0,
      discount: 0,
      afterDiscount: a,
      fee: 0,
      taxableValue: tax.taxableValue,
      taxes: tax.taxes,
      supplyType: tax.supplyType,
      placeOfSupply: tax.placeOfSupply,
      total,
      advance: 0,
      remaining: total,
    };
    return { ...po, ...common, kind: 'change', orderId: order.orderPublicId, changeId: change.id, quote };
  }
}
