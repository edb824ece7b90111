import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { listAudit } from './audit.ts';
import { route } from '../../lib/route.ts';
import { getAdminAudit } from '../../../contract/admin.ts';

export const auditRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminAudit,
    { schema: { tags: ['admin'], summary: 'Audit log of admin actions, newest first, filterable', security: [{ bearer: [] }] } },
    async (request) => listAudit(deps.db, request.query),
  );
};
