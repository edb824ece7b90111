import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { getOverview } from './overview.ts';
import { taxOverview } from './tax-overview.ts';
import { isOwner } from '../../../domain/roles.ts';
import { authOf } from '../../plugins/auth.ts';
import { route } from '../../lib/route.ts';
import { getAdminOverview, postAdminPassRowsRetry } from '../../../contract/admin-overview.ts';
import { failedPassRows, retryPassRow } from '../../lib/pass-rows.ts';
import { notFound } from '../../lib/app-error.ts';
import { plansWithoutGst } from '../maintenance/reprice.ts';

// The overview is staff work (the orders due, the support queue, the inbox counts); its money is
// the owner's: permissions.ts OWNER_ONLY_FIELDS strips it from staff's answers (decision 232).

export const overviewRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminOverview,
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        summary: 'Revenue per day (owner only), orders by stage, leads and contacts per day, chats, cashback owed (owner only)',
      },
    },
    async (request) => {
      // stepUp: the back office warns the founder while ADMIN_STEP_UP=off.
      const now = new Date();
      const tax = await taxOverview(deps, now);
      // The turnover is money (decision 232): staff get the LUT warning only.
      const forStaff = { ...tax, turnoverInr: 0, percent: 0, thresholdWarning: false };
      const overview = await getOverview(deps.database, now, deps.config.SUPPORT_FIRST_RESPONSE_HOURS);
      // Plans charged without their GST (docs/decisions/322-maintenance-plan-gst.md): the owner's, stripped for staff.
      const maintenance = { ...overview.maintenance, withoutGst: await plansWithoutGst(deps, now) };
      return {
        ...overview,
        maintenance,
        failedPassRows: await failedPassRows(deps),
        stepUp: deps.config.ADMIN_STEP_UP,
        tax: isOwner(authOf(request).user.role) ? tax : forStaff,
      };
    },
  );
  // The overview's retry of a scheduled pass's failed row (docs/decisions/339-isolated-job-passes.md): owner only (permissions.ts).
  const retryDocs = { tags: ['admin'], security: [{ bearer: [] }], summary: 'Try a failed row of a scheduled pass again on the next pass' };
  route(app, postAdminPassRowsRetry, { schema: retryDocs }, async (request, reply) => {
    if (!(await retryPassRow(deps, authOf(request).user.id, request.params.id))) throw notFound('No failed row with this id.');
    return reply.code(204).send(null);
  });
};
