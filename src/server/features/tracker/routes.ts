import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { completedStepsOnWire } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireAdmin, requireUser } from '../../plugins/auth.ts';
import { completeNextStage, undoLastStage } from './complete-next-stage.ts';
import { loadOwnOrder, ownOrderVersion, toStatus, toStatusDates } from './get-status.ts';
import { route } from '../../lib/route.ts';
import {
  getStatusGetStatusOrderById,
  getStatusGetStatusDatesOrderById,
  postTrackerOrderCompleteNextStage,
  postTrackerOrderUndoLastStage,
} from '../../../contract/tracker.ts';

export const trackerRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  // The status a customer reloads, kept per order while its version has not moved: a repeat read is
  // one index lookup and the same bytes (docs/decisions/317-order-reads-table.md).
  route(
    app,
    getStatusGetStatusOrderById,
    { schema: { tags: ['tracker'], summary: 'Progress of one of your orders (15 stages)' }, onRequest: requireUser(deps.db) },
    async (request, reply) => {
      const userId = authOf(request).user.id;
      const publicId = request.params.id;
      return deps.answers.answer(
        reply,
        `status ${userId} ${publicId}`,
        () => ownOrderVersion(deps, userId, publicId),
        async () => {
          const order = await loadOwnOrder(deps, userId, publicId);
          const status = toStatus(deps, order);
          // The customer has seen the stages: notices subscribe (the stages' batch is not mailed
          // then); published only when there is a notice to mark (decision 285). That moves the
          // version, so only an answer with nothing to mark is kept.
          if (!order.unseenStages) return { answer: status, version: order.version };
          await deps.events.publishAlone('order.seen', { orderId: order.order.id, side: 'customer', what: 'stages', at: new Date() });
          return { answer: status, version: null };
        },
      );
    },
  );

  route(
    app,
    getStatusGetStatusDatesOrderById,
    { schema: { tags: ['tracker'], summary: 'Completion date and note of every stage of your order' }, onRequest: requireUser(deps.db) },
    async (request) => toStatusDates(await loadOwnOrder(deps, authOf(request).user.id, request.params.id)),
  );

  route(
    app,
    postTrackerOrderCompleteNextStage,
    {
      schema: { tags: ['tracker'], summary: 'Admin: complete the next stage (optional note and delivery link)' },
      onRequest: requireAdmin(deps),
    },
    async (request) => {
      const r = await completeNextStage(deps, request.params.id, { ...request.body, actorUserId: authOf(request).user.id });
      return { success: true as const, order_id: r.orderPublicId, completed_steps: completedStepsOnWire(r.completedSteps) };
    },
  );

  route(
    app,
    postTrackerOrderUndoLastStage,
    { schema: { tags: ['tracker'], summary: 'Admin: take back the last completed stage' }, onRequest: requireAdmin(deps) },
    async (request) => {
      const r = await undoLastStage(deps, request.params.id, { actorUserId: authOf(request).user.id });
      return { success: true as const, order_id: r.orderPublicId, completed_steps: completedStepsOnWire(r.completedSteps) };
    },
  );
};
