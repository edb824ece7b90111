import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { overviewResponse, type OverviewResponse } from '../../../contract/admin-overview.ts';
import { errorResponses } from '../../../contract/common.ts';
import { isOwner } from '../../../domain/roles.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { getOverview } from './overview.ts';

/**
 * The overview is staff work (the orders due, the support queue, the inbox counts), but its money
 * is the owner's (decision 191): for staff the revenue, the cashback owed, the refunds to make and
 * the plans' recurring revenue come back empty, so the answer keeps its shape and tells nothing.
 */
const withoutMoney = (o: OverviewResponse): OverviewResponse => ({
  ...o,
  revenue: [],
  cashbackOwed: [],
  refundsNeeded: [],
  maintenance: { ...o.maintenance, mrr: [] },
});

export const overviewRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/overview',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        summary: 'Revenue per day (owner only), orders by stage, leads and contacts per day, chats, cashback owed (owner only)',
        response: { 200: overviewResponse, ...errorResponses },
      },
    },
    async (request) => {
      // stepUp: the back office warns the founder while ADMIN_STEP_UP=off.
      const overview = { ...(await getOverview(deps.database, new Date(), deps.config.SUPPORT_FIRST_RESPONSE_HOURS)), stepUp: deps.config.ADMIN_STEP_UP };
      return isOwner(authOf(request).user.role) ? overview : withoutMoney(overview);
    },
  );
};
