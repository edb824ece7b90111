import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { agencyActions, customerActions } from './actions.ts';
import { route } from '../../lib/route.ts';
import { getOrdersActions, getAdminActions } from '../../../contract/actions.ts';

// What waits for whom (docs/decisions/213-action-counts.md).

/** The customer's counts (mounted at /api/v1). */
export const actionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getOrdersActions,
    {
      schema: {
        tags: ['orders'],
        summary:
          'Per order of the signed-in customer: its stage and what waits for them (brief, review, reply, ' +
          "change, payment, rating), with the total for the navigation's count",
      },
      onRequest: requireUser(deps.db),
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return customerActions(deps, authOf(request).user.id);
    },
  );
};

/** The agency's inbox (mounted under /api/v1/admin, behind its guard; staff and owner). */
export const adminActionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminActions,
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        summary:
          'What waits for the agency across orders (brief submitted, new customer files, pins, changes ' +
          'requested, unread messages, support waiting or past its target), oldest first',
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { items: await agencyActions(deps) };
    },
  );
};
