import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { overviewResponse } from '../../../contract/admin-overview.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { getOverview } from './overview.ts';

// The overview is staff work (the orders due, the support queue, the inbox counts); its money is
// the owner's: permissions.ts OWNER_ONLY_FIELDS strips it from staff's answers (decision 232).

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
    // stepUp: the back office warns the founder while ADMIN_STEP_UP=off.
    async () => ({ ...(await getOverview(deps.database, new Date(), deps.config.SUPPORT_FIRST_RESPONSE_HOURS)), stepUp: deps.config.ADMIN_STEP_UP }),
  );
};
