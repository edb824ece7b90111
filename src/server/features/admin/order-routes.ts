import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { adminCompleteNextStage, adminUndoLastStage, setDeliveryLink, setInternalNote } from './order-actions.ts';
import { getOrder, listOrders, markOrderSeenByAgency } from './orders.ts';
import { markRefunded } from '../payments/refunds.ts';
import { route } from '../../lib/route.ts';
import {
  getAdminOrders,
  getAdminOrdersById,
  postAdminOrdersStagesNext,
  postAdminOrdersStagesUndo,
  putAdminOrdersDeliveryLink,
  postAdminOrdersRefunds,
  putAdminOrdersInternalNote,
} from '../../../contract/admin-orders.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export const orderRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminOrders,
    { schema: { tags, security, summary: 'Orders, newest first: search by id, e-mail or name; filter by stage' } },
    async (request) => listOrders(deps.database, request.query),
  );
  route(
    app,
    getAdminOrdersById,
    { schema: { tags, security, summary: 'One order: customer, payments, 15 stages, delivery link, internal note' } },
    async (request) => {
      const detail = await getOrder(deps.database, request.params.id);
      // The page's tab badges show a submitted brief and new files: the founder's batch no longer
      // mails them (docs/decisions/277-founder-notices-brief-and-files.md).
      await markOrderSeenByAgency(deps, request.params.id);
      return detail;
    },
  );
  route(
    app,
    postAdminOrdersStagesNext,
    { schema: { tags, security, summary: 'Complete the next tracker stage with an optional customer-visible note (customer e-mailed)' } },
    async (request) => adminCompleteNextStage(deps, authOf(request).user.id, request.params.id, request.body.note),
  );
  route(
    app,
    postAdminOrdersStagesUndo,
    { schema: { tags, security, summary: 'Undo the last stage the founder completed, with a reason' } },
    async (request) => adminUndoLastStage(deps, authOf(request).user.id, request.params.id, request.body.reason),
  );
  route(
    app,
    putAdminOrdersDeliveryLink,
    { schema: { tags, security, summary: 'Set the website link (shown to the customer once fully paid)' } },
    async (request) => setDeliveryLink(deps, authOf(request).user.id, request.params.id, request.body.url),
  );
  route(
    app,
    postAdminOrdersRefunds,
    {
      schema: {
        tags,
        security,
        summary: 'Refund one payment whole, a duplicate or a received one (through Razorpay when its keys are set), audited',
      },
    },
    async (request) => markRefunded(deps, authOf(request).user.id, request.params.id, request.body),
  );
  route(
    app,
    putAdminOrdersInternalNote,
    { schema: { tags, security, summary: 'Set the internal note (never shown to the customer)' } },
    async (request) => setInternalNote(deps, authOf(request).user.id, request.params.id, request.body.note),
  );
};
