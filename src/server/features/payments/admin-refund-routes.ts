import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { route } from '../../lib/route.ts';
import { getAdminOrdersRefunds, postAdminOrdersCancel, postAdminRefundsRetry } from '../../../contract/refunds.ts';
import { cancelOrder, orderRefunds } from './cancel.ts';
import { retryRefund } from './refund-flow.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

/**
 * The owner cancels an order and refunds through the provider (docs/decisions/321-cancel-and-refund.md).
 * Registered under the back office's guard (features/admin/routes.ts): owner only (permissions.ts),
 * step-up; a POST with an Idempotency-Key happens once (plugins/idempotency.ts).
 */
export const adminRefundRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    postAdminOrdersCancel,
    {
      schema: {
        tags,
        security,
        summary: 'Cancel the order and refund the amount chosen through the payment provider (owner, step-up, Idempotency-Key)',
      },
    },
    async (request) => cancelOrder(deps, authOf(request).user.id, request.params.id, request.body),
  );
  route(
    app,
    getAdminOrdersRefunds,
    { schema: { tags, security, summary: "The order's refunds (every origin) and what a cancel may refund now" } },
    async (request) => orderRefunds(deps, request.params.id),
  );
  route(
    app,
    postAdminRefundsRetry,
    { schema: { tags, security, summary: 'Ask the provider again for a refund that failed' } },
    async (request) => retryRefund(deps, authOf(request).user.id, request.params.id),
  );
};
