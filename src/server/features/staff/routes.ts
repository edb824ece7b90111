import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf } from '../../plugins/auth.ts';
import { inviteStaff } from './invite-staff.ts';
import { listStaff } from './list-staff.ts';
import { removeStaff } from './remove-staff.ts';
import { route } from '../../lib/route.ts';
import { getAdminStaff, postAdminStaff, deleteAdminStaffById } from '../../../contract/staff.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

/** /api/v1/admin/staff: registered inside the admin plugin; owner only (permissions.ts). */
export const adminStaffRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminStaff,
    { schema: { tags, security, summary: 'The staff list: invited addresses, their accounts and when they were last seen' } },
    async () => ({ staff: await listStaff(deps.db) }),
  );
  route(
    app,
    postAdminStaff,
    {
      schema: { tags, security, summary: 'Invite a staff member by e-mail (an existing account becomes staff at once)' },
      config: perSession(20),
    },
    async (request, reply) =>
      reply.status(201).send({ success: true as const, member: await inviteStaff(deps, authOf(request).user.id, request.body.email) }),
  );
  route(
    app,
    deleteAdminStaffById,
    { schema: { tags, security, summary: 'Remove a staff member: a customer again, signed out everywhere at once' } },
    async (request) => ({ success: true as const, revokedSessions: await removeStaff(deps, authOf(request).user.id, request.params.id) }),
  );
};
