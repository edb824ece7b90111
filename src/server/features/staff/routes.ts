import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParams } from '../../../contract/admin.ts';
import { errorResponses } from '../../../contract/common.ts';
import { inviteStaffBody, inviteStaffResponse, removeStaffResponse, staffListResponse } from '../../../contract/staff.ts';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf } from '../../plugins/auth.ts';
import { inviteStaff } from './invite-staff.ts';
import { listStaff } from './list-staff.ts';
import { removeStaff } from './remove-staff.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

/** /api/v1/admin/staff: registered inside the admin plugin; owner only (permissions.ts). */
export const adminStaffRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/staff',
    { schema: { tags, security, summary: 'The staff list: invited addresses, their accounts and when they were last seen', response: { 200: staffListResponse, ...errorResponses } } },
    async () => ({ staff: await listStaff(deps.db) }),
  );
  app.post(
    '/staff',
    {
      schema: { tags, security, summary: 'Invite a staff member by e-mail (an existing account becomes staff at once)', body: inviteStaffBody, response: { 201: inviteStaffResponse, ...errorResponses } },
      // Each invitation sends an e-mail: a bound on what a stolen owner session could send.
      config: perSession(20),
    },
    async (request, reply) => reply.status(201).send({ success: true as const, member: await inviteStaff(deps, authOf(request).user.id, request.body.email) }),
  );
  app.delete(
    '/staff/:id',
    { schema: { tags, security, summary: 'Remove a staff member: a customer again, signed out everywhere at once', params: uuidParams, response: { 200: removeStaffResponse, ...errorResponses } } },
    async (request) => ({ success: true as const, revokedSessions: await removeStaff(deps, authOf(request).user.id, request.params.id) }),
  );
};
