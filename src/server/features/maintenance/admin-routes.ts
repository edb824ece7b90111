import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { route } from '../../lib/route.ts';
import { postAdminMaintenanceSubscriptionsReprice } from '../../../contract/maintenance.ts';
import { repricePlan } from './reprice.ts';

// The plan's back-office routes (registered under /api/v1/admin, behind its guard; who may call them:
// admin/permissions.ts — the owner, with the passkey step-up).

export const adminMaintenanceRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    postAdminMaintenanceSubscriptionsReprice,
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        summary:
          'Moves a maintenance plan charged without GST to its price with GST from the next cycle (Razorpay: ' +
          'PATCH with schedule_change_at cycle_end); the customer is mailed; again: the same answer',
      },
    },
    async (request) => ({ success: true as const, plan: await repricePlan(deps, authOf(request).user.id, request.params.id) }),
  );
};
