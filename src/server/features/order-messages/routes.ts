import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderParams } from '../../../contract/admin-orders.ts';
import { errorResponses } from '../../../contract/common.ts';
import { markMessagesReadResponse, orderMessageResponse, orderMessagesParams, orderMessagesResponse, postOrderMessageBody } from '../../../contract/order-messages.ts';
import type { AppDeps } from '../../deps.ts';
import type { MessageSide } from '../../db/schema/order-messages.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { markThreadRead, postMessage, readThread } from './messages.ts';
import { workspaceOrder, type ThreadViewer } from '../../lib/workspace-order.ts';

// Order messages (decision 155): the same three operations for the customer
// (/orders/:orderId/…, public) and the founder (/admin/orders/:id/…, behind the admin guard; `:id`
// like every other /admin/orders/:id route). Every route checks the order before the body.

const viewerOf = (request: FastifyRequest, side: MessageSide): ThreadViewer => ({ side, userId: authOf(request).user.id });

function routesFor(side: MessageSide): FastifyPluginAsyncZod<{ deps: AppDeps }> {
  return async (app, { deps }) => {
    const customer = side === 'customer';
    const tags = [customer ? 'order-messages' : 'admin'];
    const base = customer ? '/orders/:orderId/messages' : '/orders/:id/messages';
    const params = customer ? orderMessagesParams : orderParams;
    const guard = customer ? { onRequest: requireUser(deps.db) } : {};
    const orderOf = async (request: FastifyRequest) => {
      const p = request.params as { orderId?: string; id?: string };
      const viewer = viewerOf(request, side);
      return { viewer, order: await workspaceOrder(deps.db, (customer ? p.orderId : p.id) ?? '', viewer) };
    };

    app.get(
      base,
      {
        schema: { tags, ...(customer ? {} : { security: [{ bearer: [] }] }), summary: "The order's messages, oldest first; reading them marks them read", params, response: { 200: orderMessagesResponse, ...errorResponses } },
        ...guard,
      },
      async (request) => {
        const p = request.params as { orderId?: string; id?: string };
        return { success: true as const, messages: await readThread(deps.database, deps.db, (customer ? p.orderId : p.id) ?? '', viewerOf(request, side), deps.config.BRAND_NAME) };
      },
    );

    app.post(
      base,
      {
        schema: {
          tags,
          ...(customer ? {} : { security: [{ bearer: [] }] }),
          summary: 'Sends a message on the order (plain text, line breaks kept), optionally with files of the order',
          params,
          body: postOrderMessageBody,
          response: { 201: orderMessageResponse, ...errorResponses },
        },
        ...guard,
        config: perSession(60),
      },
      async (request, reply) => {
        const { order, viewer } = await orderOf(request);
        return reply.status(201).send({ success: true as const, message: await postMessage(deps, order, viewer, request.body) });
      },
    );

    // The customer's only: the founder's page reads the thread again (GET marks it read), and an
    // admin POST would be an audited write for what is not a change of anything.
    if (!customer) return;
    app.post(
      `${base}/read`,
      {
        schema: {
          tags,
          ...(customer ? {} : { security: [{ bearer: [] }] }),
          summary: 'Marks the thread read up to now (a message arrived live while it was open)',
          params,
          response: { 200: markMessagesReadResponse, ...errorResponses },
        },
        ...guard,
        config: perSession(120),
      },
      async (request) => {
        const { order } = await orderOf(request);
        await markThreadRead(deps.db, order, side);
        return { success: true as const, unreadMessages: 0 as const };
      },
    );
  };
}

/** The customer's routes (mounted at /api/v1; in the public OpenAPI document). */
export const orderMessageRoutes = routesFor('customer');
/** The founder's routes (mounted under /api/v1/admin); sending is audited. */
export const adminOrderMessageRoutes = routesFor('agency');
