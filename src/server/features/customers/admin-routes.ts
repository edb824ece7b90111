import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParams } from '../../../contract/admin.ts';
import { customerDetailResponse, customerListQuery, customerListResponse, revokeSessionsResponse } from '../../../contract/admin-customers.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { endAllSessions, getCustomer, listCustomers } from './customers.ts';
import { sessionCacheOf } from '../auth/sessions.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export const customerRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/customers',
    { schema: { tags, security, summary: 'Customers, newest first, searchable by e-mail or name', querystring: customerListQuery, response: { 200: customerListResponse, ...errorResponses } } },
    async (request) => listCustomers(deps.db, request.query),
  );
  app.get(
    '/customers/:id',
    { schema: { tags, security, summary: 'One customer: profile, sign-in methods, sessions, orders, conversations', params: uuidParams, response: { 200: customerDetailResponse, ...errorResponses } } },
    async (request) => getCustomer(deps.db, request.params.id, deps.config.SUPPORT_DAYS),
  );
  app.post(
    '/customers/:id/sessions/revoke',
    { schema: { tags, security, summary: "End all of a customer's sessions", params: uuidParams, response: { 200: revokeSessionsResponse, ...errorResponses } } },
    async (request) => {
      const revoked = await endAllSessions(deps.db, authOf(request).user.id, request.params.id);
      deps.revocations.revoked({ userId: request.params.id });
      // Revoked inside a transaction: the session caches are told after it committed.
      sessionCacheOf(deps.db)?.userSessionsRevoked(request.params.id);
      return { success: true as const, revoked };
    },
  );
};
