import type { TestApp } from '../../../../tests/helpers/test-app.ts';
import { loginAs } from '../../../../tests/helpers/test-app.ts';
import { getOrCreateReferralCode } from '../referrals/referral-code.ts';
import { createPaymentOrder } from '../payments/create-payment-order.ts';
import { settlePayment } from '../payments/settle-payment.ts';

// Test seeding through the orders feature's own services, never by writing its tables.

let paymentSeq = 0;

async function pay(t: TestApp, user: Awaited<ReturnType<typeof loginAs>>['user'], input: Parameters<typeof createPaymentOrder>[2]) {
  const po = await createPaymentOrder(t.deps, user, input);
  const settled = await settlePayment(t.deps, { providerOrderId: po.id, paymentId: `pay_seed_${++paymentSeq}` });
  if (settled.outcome !== 'paid') throw new Error(`seed payment not settled: ${settled.outcome}`);
  return settled.orderPublicId!;
}

/** A customer with a paid advance (stage 1 done); optionally bought with someone's referral code. */
export async function seedPaidOrder(t: TestApp, email: string, opts: { referrerUserId?: string } = {}) {
  const customer = await loginAs(t, email);
  const couponCode = opts.referrerUserId ? await getOrCreateReferralCode(t.deps.db, opts.referrerUserId) : undefined;
  const orderId = await pay(t, customer.user, { kind: 'advance', acceptTerms: true, couponCode });
  return { customer, orderId };
}

/** The customer pays the remaining 80 %. */
export async function seedRemainingPayment(t: TestApp, customer: Awaited<ReturnType<typeof loginAs>>, orderId: string) {
  await pay(t, customer.user, { kind: 'remaining', orderId });
}
