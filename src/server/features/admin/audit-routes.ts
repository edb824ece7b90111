import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditListResponse, auditQuery } from '../../../contract/admin.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { listAudit } from './audit.ts';

export const auditRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'Audit log of admin actions, newest first, filterable',
        security: [{ bearer: [] }],
        querystring: auditQuery,
        response: { 200: auditListResponse, ...errorResponses },
      },
    },
    async (request) => listAudit(deps.db, request.query),
  );
};
