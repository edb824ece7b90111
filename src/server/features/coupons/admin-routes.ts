import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParams } from '../../../contract/admin.ts';
import {
  couponListResponse,
  couponResponse,
  createCouponBody,
  featurePromotionBody,
  featurePromotionResponse,
  updateCouponBody,
} from '../../../contract/admin-coupons.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { createCoupon, deactivateCoupon, featureCoupon, listCoupons, updateCoupon } from './admin-coupons.ts';
import { PROMOTION_TOPIC } from '../promotion/routes.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export const couponRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  // Any successful write here may change the featured promotion: every instance drops its cached
  // GET /promotion before this answer leaves (decision 070).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && reply.statusCode < 400) deps.bus.publish(PROMOTION_TOPIC);
    return payload;
  });
  app.get(
    '/coupons',
    { schema: { tags, security, summary: 'Promo coupons with redemptions, referral codes with uses, featured code', response: { 200: couponListResponse, ...errorResponses } } },
    async () => listCoupons(deps.db),
  );

  app.post(
    '/coupons',
    { schema: { tags, security, summary: 'Create a promo coupon', body: createCouponBody, response: { 201: couponResponse, ...errorResponses } } },
    async (request, reply) => reply.status(201).send({ coupon: await createCoupon(deps.db, authOf(request).user.id, request.body) }),
  );

  app.patch(
    '/coupons/:id',
    { schema: { tags, security, summary: 'Edit a promo coupon (percent, description, validity, max uses, active)', params: uuidParams, body: updateCouponBody, response: { 200: couponResponse, ...errorResponses } } },
    async (request) => ({ coupon: await updateCoupon(deps.db, authOf(request).user.id, request.params.id, request.body) }),
  );

  app.post(
    '/coupons/:id/deactivate',
    { schema: { tags, security, summary: 'Deactivate a promo coupon', params: uuidParams, response: { 200: couponResponse, ...errorResponses } } },
    async (request) => ({ coupon: await deactivateCoupon(deps.db, authOf(request).user.id, request.params.id) }),
  );

  app.put(
    '/promotion',
    { schema: { tags, security, summary: 'Choose the promo coupon that drives the banner, popup and countdown', body: featurePromotionBody, response: { 200: featurePromotionResponse, ...errorResponses } } },
    async (request) => ({ featuredCode: await featureCoupon(deps.db, authOf(request).user.id, request.body.couponCode) }),
  );
};
