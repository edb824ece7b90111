import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { installments, orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { checkoutFollowups } from '../../db/schema/checkout-followups.ts';
import { hasNewerDraft, paidSinceOrderId } from './draft-rules.ts';
import { route } from '../../lib/route.ts';
import { getAdminCheckoutDrafts } from '../../../contract/checkout-drafts.ts';

/**
 * Back office: open advance checkouts (drafts), newest first, with what became of the follow-up: a
 * draft of a customer who paid since is marked with that order, not left "not yet" (decision 128).
 */
export const adminCheckoutDraftRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getAdminCheckoutDrafts, { schema: { tags: ['admin'], summary: 'Advance checkouts opened and not paid' } }, async () => {
    const rows = await deps.db
      .select({
        order: orders,
        email: users.email,
        advance: installments.amount,
        followedUpAt: checkoutFollowups.sentAt,
        paidOrderId: paidSinceOrderId,
        newerDraft: hasNewerDraft,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .innerJoin(installments, and(eq(installments.orderId, orders.id), eq(installments.kind, 'advance')))
      .leftJoin(checkoutFollowups, eq(checkoutFollowups.orderPublicId, orders.publicId))
      .where(eq(orders.state, 'awaiting_advance'))
      .orderBy(desc(orders.createdAt))
      .limit(500);
    return {
      success: true as const,
      retentionDays: deps.config.DRAFT_RETENTION_DAYS,
      followUpHours: deps.config.ABANDONED_CHECKOUT_HOURS,
      drafts: rows.map((r) => ({
        orderId: r.order.publicId,
        email: r.email,
        createdAt: r.order.createdAt.toISOString(),
        currency: r.order.currency,
        advance: r.advance,
        couponCode: r.order.couponCode,
        followedUpAt: r.followedUpAt?.toISOString() ?? null,
        paidOrderId: r.paidOrderId,
        followUp: r.followedUpAt
          ? ('sent' as const)
          : r.paidOrderId
            ? ('paid_since' as const)
            : r.newerDraft
              ? ('newer_checkout' as const)
              : ('pending' as const),
      })),
    };
  });
};
