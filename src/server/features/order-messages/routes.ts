import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  getAdminOrdersMessages,
  getOrdersMessages,
  postAdminOrdersMessages,
  postOrdersMessages,
  postOrdersMessagesRead,
} from '../../../contract/order-messages.ts';
import type { AppDeps } from '../../deps.ts';
import type { MessageSide } from '../../db/schema/order-messages.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { markThreadRead, ownThreadVersion, postMessage, readThread } from './messages.ts';
import { route } from '../../lib/route.ts';
import { workspaceOrder, type ThreadViewer } from '../../lib/workspace-order.ts';

// Order messages (decision 155): the same three operations for the customer
// (/orders/:orderId/…, public) and the founder (/admin/orders/:id/…, behind the admin guard; `:id`
// like every other /admin/orders/:id route). Every route checks the order before the body.

const viewerOf = (request: FastifyRequest, side: MessageSide): ThreadViewer => ({ side, userId: authOf(request).user.id });

function routesFor(side: MessageSide): FastifyPluginAsyncZod<{ deps: AppDeps }> {
  return async (app, { deps }) => {
    const customer = side === 'customer';
    const tags = [customer ? 'order-messages' : 'admin'];
    const security = customer ? {} : { security: [{ bearer: [] }] };
    const guard = customer ? { onRequest: requireUser(deps.db) } : {};
    // The order's public id: `:orderId` on the customer's paths, `:id` on the founder's.
    const orderOf = async (request: FastifyRequest & { params: { orderId: string } | { id: string } }) => {
      const viewer = viewerOf(request, side);
      const publicId = 'orderId' in request.params ? request.params.orderId : request.params.id;
      return { viewer, order: await workspaceOrder(deps.db, publicId, viewer) };
    };

    route(
      app,
      customer ? getOrdersMessages : getAdminOrdersMessages,
      { schema: { tags, ...security, summary: "The order's messages, oldest first; reading them marks them read" }, ...guard },
      async (request, reply) => {
        const publicId = 'orderId' in request.params ? request.params.orderId : request.params.id;
        const viewer = viewerOf(request, side);
        const page = { before: request.query.before, limit: request.query.limit };
        // The customer's thread, a page kept per order and cursor while its version has not moved: a
        // repeat read is one index lookup and the same bytes (docs/decisions/317-order-reads-table.md).
        // The founder's page is read far less; it reads the thread each time.
        const read = async () => {
          const { messages, earlierCursor, version } = await readThread(
            deps.database,
            deps.db,
            publicId,
            viewer,
            deps.config.BRAND_NAME,
            page,
          );
          return { answer: { success: true as const, messages, earlierCursor }, version };
        };
        if (!customer) return (await read()).answer;
        const key = `thread ${viewer.userId} ${publicId} ${page.before ?? ''} ${page.limit}`;
        return deps.answers.answer(reply, key, () => ownThreadVersion(deps.database, publicId, viewer.userId), read);
      },
    );

    route(
      app,
      customer ? postOrdersMessages : postAdminOrdersMessages,
      {
        schema: {
          tags,
          ...security,
          summary: 'Sends a message on the order (plain text, line breaks kept), optionally with files of the order',
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
    route(
      app,
      postOrdersMessagesRead,
      {
        schema: { tags, summary: 'Marks the thread read up to now (a message arrived live while it was open)' },
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
