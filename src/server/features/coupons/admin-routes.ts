import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { createCoupon, deactivateCoupon, featureCoupon, listCoupons, updateCoupon } from './admin-coupons.ts';
import { PROMOTION_TOPIC } from '../promotion/routes.ts';
import { route } from '../../lib/route.ts';
import {
  getAdminCoupons,
  postAdminCoupons,
  patchAdminCouponsById,
  postAdminCouponsDeactivate,
  putAdminPromotion,
} from '../../../contract/admin-coupons.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export const couponRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  // Any successful write here may change the featured promotion: every instance drops its cached
  // GET /promotion before this answer leaves (decision 070).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && reply.statusCode < 400) deps.bus.publish(PROMOTION_TOPIC);
    return payload;
  });
  route(
    app,
    getAdminCoupons,
    { schema: { tags, security, summary: 'Promo coupons with redemptions, referral codes with uses, featured code' } },
    async () => listCoupons(deps.db),
  );

  route(app, postAdminCoupons, { schema: { tags, security, summary: 'Create a promo coupon' } }, async (request, reply) =>
    reply.status(201).send({ coupon: await createCoupon(deps.db, authOf(request).user.id, request.body) }),
  );

  route(
    app,
    patchAdminCouponsById,
    { schema: { tags, security, summary: 'Edit a promo coupon (percent, description, validity, max uses, active)' } },
    async (request) => ({ coupon: await updateCoupon(deps.db, authOf(request).user.id, request.params.id, request.body) }),
  );

  route(app, postAdminCouponsDeactivate, { schema: { tags, security, summary: 'Deactivate a promo coupon' } }, async (request) => ({
    coupon: await deactivateCoupon(deps.db, authOf(request).user.id, request.params.id),
  }));

  route(
    app,
    putAdminPromotion,
    { schema: { tags, security, summary: 'Choose the promo coupon that drives the banner, popup and countdown' } },
    async (request) => ({ featuredCode: await featureCoupon(deps.db, authOf(request).user.id, request.body.couponCode) }),
  );
};
