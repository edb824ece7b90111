import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { REFERRAL_PERCENT } from '../../../domain/referral.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/app-error.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { getOrCreateReferralCode } from '../referrals/referral-code.ts';
import { checkCoupon } from './check-coupon.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { route } from '../../lib/route.ts';
import { postCouponVerifyCoupon, getCouponGetCouponsByUserIdByUserId } from '../../../contract/coupons.ts';

export const couponRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    postCouponVerifyCoupon,
    {
      schema: { tags: ['coupons'], summary: 'Whether a coupon or referral code applies for the signed-in user' },
      onRequest: requireUser(deps.db),
      config: perSession(30),
    },
    async (request) => {
      const check = await checkCoupon(deps.db, {
        userId: authOf(request).user.id,
        code: request.body.coupon_code,
        referralValidUntil: moneyContext(deps).referralValidUntil,
      });
      // A "no" is an answer, not an error: the spec's client reads `success` (§4 "Coupon button").
      return check.ok
        ? {
            success: true,
            discount_percent: check.coupon.percent,
            kind: check.coupon.kind,
            message: `${check.coupon.percent}% off applied.`,
          }
        : { success: false, discount_percent: 0, message: check.message };
    },
  );

  route(
    app,
    getCouponGetCouponsByUserIdByUserId,
    {
      schema: { tags: ['coupons'], summary: "The signed-in user's codes; the first is their referral code" },
      onRequest: requireUser(deps.db),
    },
    async (request) => {
      const me = authOf(request).user;
      // Someone else's id answers exactly like an unknown one.
      if (request.params.userId !== me.id) throw notFound('Not found.');
      const code = await getOrCreateReferralCode(deps.db, me.id);
      return { success: true as const, coupons: [{ coupon_code: code, kind: 'referral' as const, discount_percent: REFERRAL_PERCENT }] };
    },
  );
};
