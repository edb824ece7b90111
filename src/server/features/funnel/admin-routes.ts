import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { funnelCsv, funnelReport } from './funnel-report.ts';
import { route } from '../../lib/route.ts';
import { getAdminFunnel } from '../../../contract/funnel.ts';
import { getAdminFunnelCsv } from '../../../contract/admin-leads.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

/** Back office: the conversion funnel per week and source, and its CSV (under the /admin guard). */
export const adminFunnelRoutes: FastifyPluginAsyncZod<{
  deps: AppDeps;
}> = async (app, { deps }) => {
  route(
    app,
    getAdminFunnel,
    {
      schema: {
        tags,
        security,
        summary: 'Visitors → leads and contact messages → sign-ups → advance paid → delivered, per week and first-touch source',
      },
    },
    async (request) => funnelReport(deps.database, request.query.weeks),
  );
  route(
    app,
    getAdminFunnelCsv,
    { schema: { tags, security, summary: 'The funnel as CSV, one row per week and source', produces: ['text/csv'] } },
    async (request, reply) =>
      reply
        .headers({
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="funnel-${new Date().toISOString().slice(0, 10)}.csv"`,
          'cache-control': 'no-store',
        })
        .send(funnelCsv(await funnelReport(deps.database, request.query.weeks))),
  );
};
