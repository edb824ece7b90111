import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/common.ts';
import { completeStageRequest, orderIdParams, stageChangeResponse, statusDatesResponse, statusResponse } from '../../../contract/tracker.ts';
import { completedStepsOnWire } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireAdmin, requireUser } from '../../plugins/auth.ts';
import { completeNextStage, undoLastStage } from './complete-next-stage.ts';
import { loadOwnOrder, toStatus, toStatusDates } from './get-status.ts';

export const trackerRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/status/getStatus/order/:id',
    { schema: { tags: ['tracker'], summary: 'Progress of one of your orders (15 stages)', params: orderIdParams, response: { 200: statusResponse, ...errorResponses } }, onRequest: requireUser(deps.db) },
    async (request) => {
      const order = await loadOwnOrder(deps, authOf(request).user.id, request.params.id);
      // The customer has seen the stages: notices subscribe (the stages' batch is not mailed then);
      // published only when there is a notice to mark (decision 285).
      if (order.unseenStages) await deps.events.publishAlone('order.seen', { orderId: order.order.id, side: 'customer', what: 'stages', at: new Date() });
      return toStatus(deps, order);
    },
  );

  app.get(
    '/status/getStatusDates/order/:id',
    { schema: { tags: ['tracker'], summary: 'Completion date and note of every stage of your order', params: orderIdParams, response: { 200: statusDatesResponse, ...errorResponses } }, onRequest: requireUser(deps.db) },
    async (request) => toStatusDates(await loadOwnOrder(deps, authOf(request).user.id, request.params.id)),
  );

  app.post(
    '/tracker/order/:id/complete-next-stage',
    {
      schema: { tags: ['tracker'], summary: 'Admin: complete the next stage (optional note and delivery link)', params: orderIdParams, body: completeStageRequest, response: { 200: stageChangeResponse, ...errorResponses } },
      onRequest: requireAdmin(deps),
    },
    async (request) => {
      const r = await completeNextStage(deps, request.params.id, { ...request.body, actorUserId: authOf(request).user.id });
      return { success: true as const, order_id: r.orderPublicId, completed_steps: completedStepsOnWire(r.completedSteps) };
    },
  );

  app.post(
    '/tracker/order/:id/undo-last-stage',
    { schema: { tags: ['tracker'], summary: 'Admin: take back the last completed stage', params: orderIdParams, response: { 200: stageChangeResponse, ...errorResponses } }, onRequest: requireAdmin(deps) },
    async (request) => {
      const r = await undoLastStage(deps, request.params.id, { actorUserId: authOf(request).user.id });
      return { success: true as const, order_id: r.orderPublicId, completed_steps: completedStepsOnWire(r.completedSteps) };
    },
  );
};
