import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  completeStageBody,
  deliveryLinkBody,
  deliveryLinkResponse,
  internalNoteBody,
  internalNoteResponse,
  orderDetailResponse,
  orderListQuery,
  orderListResponse,
  orderParams,
  refundBody,
  refundResponse,
  stageChangeResponse,
  undoStageBody,
} from '../../../contract/admin-orders.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { adminCompleteNextStage, adminUndoLastStage, setDeliveryLink, setInternalNote } from './order-actions.ts';
import { getOrder, listOrders, markOrderSeenByAgency } from './orders.ts';
import { markRefunded } from '../payments/refunds.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export const orderRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/orders',
    { schema: { tags, security, summary: 'Orders, newest first: search by id, e-mail or name; filter by stage', querystring: orderListQuery, response: { 200: orderListResponse, ...errorResponses } } },
    async (request) => listOrders(deps.database, request.query),
  );
  app.get(
    '/orders/:id',
    { schema: { tags, security, summary: 'One order: customer, payments, 15 stages, delivery link, internal note', params: orderParams, response: { 200: orderDetailResponse, ...errorResponses } } },
    async (request) => {
      const detail = await getOrder(deps.database, request.params.id);
      // The page's tab badges show a submitted brief and new files: the founder's batch no longer
      // mails them (docs/decisions/277-founder-notices-brief-and-files.md).
      await markOrderSeenByAgency(deps, request.params.id);
      return detail;
    },
  );
  app.post(
    '/orders/:id/stages/next',
    { schema: { tags, security, summary: 'Complete the next tracker stage with an optional customer-visible note (customer e-mailed)', params: orderParams, body: completeStageBody, response: { 200: stageChangeResponse, ...errorResponses } } },
    async (request) => adminCompleteNextStage(deps, authOf(request).user.id, request.params.id, request.body.note),
  );
  app.post(
    '/orders/:id/stages/undo',
    { schema: { tags, security, summary: 'Undo the last stage the founder completed, with a reason', params: orderParams, body: undoStageBody, response: { 200: stageChangeResponse, ...errorResponses } } },
    async (request) => adminUndoLastStage(deps, authOf(request).user.id, request.params.id, request.body.reason),
  );
  app.put(
    '/orders/:id/delivery-link',
    { schema: { tags, security, summary: 'Set the website link (shown to the customer once fully paid)', params: orderParams, body: deliveryLinkBody, response: { 200: deliveryLinkResponse, ...errorResponses } } },
    async (request) => setDeliveryLink(deps, authOf(request).user.id, request.params.id, request.body.url),
  );
  app.post(
    '/orders/:id/refunds',
    {
      schema: {
        tags,
        security,
        summary: 'Mark a duplicate payment refunded (refunded through Razorpay when its keys are set), audited',
        params: orderParams,
        body: refundBody,
        response: { 200: refundResponse, ...errorResponses },
      },
    },
    async (request) => markRefunded(deps, authOf(request).user.id, request.params.id, request.body),
  );
  app.put(
    '/orders/:id/internal-note',
    { schema: { tags, security, summary: 'Set the internal note (never shown to the customer)', params: orderParams, body: internalNoteBody, response: { 200: internalNoteResponse, ...errorResponses } } },
    async (request) => setInternalNote(deps, authOf(request).user.id, request.params.id, request.body.note),
  );
};
