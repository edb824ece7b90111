import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAdminPayouts, getAdminPayoutsCsv, postAdminPayoutsSync } from '../../../contract/payouts.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { route } from '../../lib/route.ts';
import { localMonth } from './months.ts';
import { payoutsCsv } from './payouts-csv.ts';
import { payoutsOfMonth } from './payouts-report.ts';
import { recentMonths, syncSettlements } from './sync-settlements.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

/** Back office, owner only (features/admin/permissions.ts): Razorpay's payouts, reconciled (docs/decisions/323-razorpay-settlements.md). */
export const adminPayoutRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tz = deps.config.INVOICE_TIME_ZONE;
  route(
    app,
    getAdminPayouts,
    {
      schema: {
        tags,
        security,
        summary:
          "The month's payouts (default: this month in INVOICE_TIME_ZONE), what Razorpay settled that the app " +
          'does not know, and live payments not settled after 5 days',
      },
    },
    async (request) => {
      const now = new Date();
      return payoutsOfMonth(deps, request.query.month ?? localMonth(now, tz), now);
    },
  );
  route(
    app,
    getAdminPayoutsCsv,
    {
      schema: {
        tags,
        security,
        summary: "The month's payouts as CSV for the accountant: one row per settled line, rupees, fees and the GST on them",
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { month } = request.params;
      const csv = payoutsCsv(await payoutsOfMonth(deps, month, new Date()), tz);
      return reply
        .headers({
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="payouts-${month}.csv"`,
          'cache-control': 'no-store',
        })
        .send(csv);
    },
  );
  // Each read is a few calls to Razorpay's API: a handful a minute is plenty for a person.
  route(
    app,
    postAdminPayoutsSync,
    {
      schema: {
        tags,
        security,
        summary: "Reads Razorpay's settlements of ?month now (without it: this month and the last); audited; 409 without Razorpay keys",
      },
      config: perSession(5),
    },
    async (request) => {
      const now = new Date();
      const months = request.query.month ? [request.query.month] : recentMonths(deps, now);
      return syncSettlements(deps, months, now, { actorUserId: authOf(request).user.id });
    },
  );
};
