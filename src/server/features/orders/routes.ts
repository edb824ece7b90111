import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { notFound } from '../../lib/app-error.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { listOrders, listVersions, readOrders } from './list-orders.ts';
import { route } from '../../lib/route.ts';
import { postOrderCreateOrder, getOrderGetAllOrdersUser } from '../../../contract/orders.ts';

export const orderRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    postOrderCreateOrder,
    {
      schema: { tags: ['orders'], summary: 'Returns the order a verified advance created (idempotent; client totals are ignored)' },
      onRequest: requireUser(deps.db),
    },
    async (request) => {
      const me = authOf(request).user;
      // The order exists once the advance is verified; this call only finds it. With the provider
      // order id it is that order, otherwise the customer's latest one.
      const where = request.body.razorpay_order_id
        ? and(
            eq(orders.userId, me.id),
            eq(paymentAttempts.providerOrderId, request.body.razorpay_order_id),
            ne(orders.state, 'awaiting_advance'),
          )
        : and(eq(orders.userId, me.id), ne(orders.state, 'awaiting_advance'));
      const [found] = await deps.db
        .select({ publicId: orders.publicId })
        .from(orders)
        .innerJoin(installments, and(eq(installments.orderId, orders.id), eq(installments.kind, 'advance')))
        .innerJoin(paymentAttempts, eq(paymentAttempts.installmentId, installments.id))
        .where(where)
        .orderBy(desc(orders.createdAt))
        .limit(1);
      if (!found) throw notFound('No paid advance found. Pay the advance first.');
      const [order] = await listOrders(deps, me.id, found.publicId);
      return { success: true as const, order: order!, message: 'Order placed.' };
    },
  );

  // The list a customer reloads, kept per customer while its orders' versions have not moved: a repeat
  // read is one index lookup and the same bytes (docs/decisions/317-order-reads-table.md).
  route(
    app,
    getOrderGetAllOrdersUser,
    { schema: { tags: ['orders'], summary: "The signed-in customer's orders" }, onRequest: requireUser(deps.db) },
    async (request, reply) => {
      const userId = authOf(request).user.id;
      return deps.answers.answer(
        reply,
        `list ${userId}`,
        () => listVersions(deps, userId),
        async () => {
          const { orders, versions } = await readOrders(deps, userId);
          return { answer: { success: true as const, orders }, version: versions };
        },
      );
    },
  );
};
