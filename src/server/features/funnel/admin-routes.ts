import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { csvResponse } from '../../../contract/admin-leads.ts';
import { errorResponses } from '../../../contract/common.ts';
import { funnelQuery, funnelResponse } from '../../../contract/funnel.ts';
import type { AppDeps } from '../../deps.ts';
import { funnelCsv, funnelReport } from './funnel-report.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

/** Back office: the conversion funnel per week and source, and its CSV (under the /admin guard). */
export const adminFunnelRoutes: FastifyPluginAsyncZod<{
  deps: AppDeps;
}> = async (app, { deps }) => {
  app.get(
    '/funnel',
    {
      schema: {
        tags,
        security,
        summary: 'Visitors → leads and contact messages → sign-ups → advance paid → delivered, per week and first-touch source',
        querystring: funnelQuery,
        response: { 200: funnelResponse, ...errorResponses },
      },
    },
    async (request) => funnelReport(deps.database, request.query.weeks),
  );
  app.get(
    '/funnel.csv',
    {
      schema: {
        tags,
        security,
        summary: 'The funnel as CSV, one row per week and source',
        querystring: funnelQuery,
        produces: ['text/csv'],
        response: { 200: csvResponse, ...errorResponses },
      },
    },
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
