import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { desc, eq } from 'drizzle-orm';
import { REFERRAL_PERCENT } from '../../../domain/referral.ts';
import type { AppDeps } from '../../deps.ts';
import { cashback, orders } from '../../db/schema/orders.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { getOrCreateReferralCode } from './referral-code.ts';
import { route } from '../../lib/route.ts';
import { getReferralSummary } from '../../../contract/referrals.ts';

export const referralRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getReferralSummary,
    { schema: { tags: ['referrals'], summary: "The signed-in user's referral code and cashback" }, onRequest: requireUser(deps.db) },
    async (request) => {
      const me = authOf(request).user;
      const code = await getOrCreateReferralCode(deps.db, me.id);
      const rows = await deps.db
        .select({ amount: cashback.amount, currency: cashback.currency, state: cashback.state, orderDate: orders.createdAt })
        .from(cashback)
        .innerJoin(orders, eq(orders.id, cashback.orderId))
        .where(eq(cashback.referrerUserId, me.id))
        .orderBy(desc(cashback.createdAt))
        .limit(200);
      const totals = new Map<string, { currency: string; pending: number; earned: number; paid: number }>();
      for (const r of rows) {
        const t = totals.get(r.currency) ?? { currency: r.currency, pending: 0, earned: 0, paid: 0 };
        t[r.state] += r.amount;
        totals.set(r.currency, t);
      }
      const until = moneyContext(deps).referralValidUntil;
      return {
        success: true as const,
        code,
        percent: REFERRAL_PERCENT,
        validUntil: until ? until.toISOString() : null,
        cashback: rows.map((r) => ({ ...r, orderDate: r.orderDate.toISOString() })),
        totals: [...totals.values()],
      };
    },
  );
};
