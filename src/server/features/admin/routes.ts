import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../plugins/auth.ts';
import { isOwner } from '../../../domain/roles.ts';
import { stripOwnerOnlyFields } from './permissions.ts';
import { auditRoutes } from './audit-routes.ts';
import { couponRoutes } from '../coupons/admin-routes.ts';
import { customerRoutes } from '../customers/admin-routes.ts';
import { overviewRoutes } from './overview-routes.ts';
import { orderRoutes } from './order-routes.ts';
import { cashbackRoutes } from '../referrals/admin-routes.ts';
import { chatSummaryRoutes } from '../chat/admin-routes.ts';
import { chatConsoleRoutes } from '../chat/console-routes.ts';
import { inboxRoutes } from '../leads/admin-routes.ts';
import { adminInvoiceRoutes } from '../invoices/routes.ts';
import { adminStatementRoutes } from '../ledger/routes.ts';
import { adminReminderRoutes } from '../reminders/admin-routes.ts';
import { adminCheckoutDraftRoutes } from '../abandoned-checkouts/admin-routes.ts';
import { adminFunnelRoutes } from '../funnel/admin-routes.ts';
import { adminOrderFileRoutes } from '../order-files/routes.ts';
import { adminBriefRoutes } from '../brief/routes.ts';
import { adminOrderMessageRoutes } from '../order-messages/routes.ts';
import { adminReviewRoutes } from '../reviews/routes.ts';
import { adminSiteLinkRoutes } from '../site-review/routes.ts';
import { adminSupportRoutes } from '../support/routes.ts';
import { adminSiteCareRoutes } from '../site-care/routes.ts';
import { adminStaffRoutes } from '../staff/routes.ts';
import { adminTaxReturnRoutes } from '../tax-return/admin-routes.ts';
import { adminActionRoutes } from '../actions/routes.ts';
import { adminRatingRoutes } from '../ratings/routes.ts';
import { adminChangeRoutes } from '../changes/routes.ts';
import { adminPayoutRoutes } from '../payouts/admin-routes.ts';
import { adminMaintenanceRoutes } from '../maintenance/admin-routes.ts';
import { adminRefundRoutes } from '../payments/admin-refund-routes.ts';

/**
 * Everything under /api/v1/admin. The admin check runs as an onRequest hook of this whole plugin,
 * so no route registered here can forget it, and it runs before the body is parsed or validated:
 * a visitor learns nothing about a route's input (401/403 come before any 400). What staff may call
 * and what only the owner may: permissions.ts.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const guard = requireAdmin(deps);
  app.addHook('onRequest', async (request, reply) => guard.call(app, request, reply));
  // Staff get no money fields (permissions.ts OWNER_ONLY_FIELDS, decision 232), on every admin answer.
  app.addHook('preSerialization', async (request, _reply, payload) =>
    request.auth && !isOwner(request.auth.user.role) ? stripOwnerOnlyFields(request.method, request.routeOptions.url, payload) : payload,
  );
  await app.register(overviewRoutes, { deps });
  await app.register(auditRoutes, { deps });
  await app.register(couponRoutes, { deps });
  await app.register(customerRoutes, { deps });
  await app.register(orderRoutes, { deps });
  await app.register(cashbackRoutes, { deps });
  await app.register(chatSummaryRoutes, { deps });
  // The console's availability switch and canned replies (docs/decisions/347-chat-availability-canned-replies-csat.md).
  await app.register(chatConsoleRoutes, { deps });
  await app.register(inboxRoutes, { deps });
  await app.register(adminInvoiceRoutes, { deps });
  await app.register(adminStatementRoutes, { deps });
  await app.register(adminReminderRoutes, { deps });
  await app.register(adminCheckoutDraftRoutes, { deps });
  await app.register(adminFunnelRoutes, { deps });
  await app.register(adminOrderFileRoutes, { deps });
  await app.register(adminBriefRoutes, { deps });
  await app.register(adminOrderMessageRoutes, { deps });
  await app.register(adminReviewRoutes, { deps });
  await app.register(adminSiteLinkRoutes, { deps });
  await app.register(adminSupportRoutes, { deps });
  await app.register(adminSiteCareRoutes, { deps });
  await app.register(adminStaffRoutes, { deps });
  await app.register(adminTaxReturnRoutes, { deps });
  // What waits for the agency, and the customers' ratings (docs/decisions/213, 214).
  await app.register(adminActionRoutes, { deps });
  await app.register(adminRatingRoutes, { deps });
  await app.register(adminChangeRoutes, { deps });
  // Razorpay's payouts, reconciled (docs/decisions/323-razorpay-settlements.md).
  await app.register(adminPayoutRoutes, { deps });
  await app.register(adminMaintenanceRoutes, { deps });
  // Cancelling an order and its refunds (docs/decisions/321-cancel-and-refund.md).
  await app.register(adminRefundRoutes, { deps });
};
