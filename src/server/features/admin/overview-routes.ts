import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { overviewResponse } from '../../../contract/admin-overview.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { getOverview } from './overview.ts';

export const overviewRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/overview',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        summary: 'Revenue per day, orders by stage, leads and contacts per day, chats, cashback owed',
        response: { 200: overviewResponse, ...errorResponses },
      },
    },
    // stepUp: the back office warns the founder while ADMIN_STEP_UP=off (issue 21 item 2).
    async () => ({ ...(await getOverview(deps.database, new Date(), deps.config.SUPPORT_FIRST_RESPONSE_HOURS)), stepUp: deps.config.ADMIN_STEP_UP }),
  );
};
