import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { endAllSessions, getCustomer, listCustomers } from './customers.ts';
import { sessionCacheOf } from '../auth/sessions.ts';
import { route } from '../../lib/route.ts';
import { getAdminCustomers, getAdminCustomersById, postAdminCustomersSessionsRevoke } from '../../../contract/admin-customers.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export const customerRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminCustomers,
    { schema: { tags, security, summary: 'Customers, newest first, searchable by e-mail or name' } },
    async (request) => listCustomers(deps.db, request.query),
  );
  route(
    app,
    getAdminCustomersById,
    { schema: { tags, security, summary: 'One customer: profile, sign-in methods, sessions, orders, conversations' } },
    async (request) => getCustomer(deps.db, request.params.id, deps.config.SUPPORT_DAYS, deps.queries.supportExtension),
  );
  route(
    app,
    postAdminCustomersSessionsRevoke,
    { schema: { tags, security, summary: "End all of a customer's sessions" } },
    async (request) => {
      const revoked = await endAllSessions(deps.db, authOf(request).user.id, request.params.id);
      deps.revocations.revoked({ userId: request.params.id });
      // Revoked inside a transaction: the session caches are told after it committed.
      sessionCacheOf(deps.db)?.userSessionsRevoked(request.params.id);
      return { success: true as const, revoked };
    },
  );
};
