import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { workspaceOrder, type ThreadViewer } from '../../lib/workspace-order.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { queueItem, supportQueue } from './queue.ts';
import {
  listThread,
  openRequest,
  orderOfRequest,
  postSupportMessage,
  reopenRequest,
  requestOf,
  resolveByCustomer,
  setRequestState,
  supportOrder,
  supportOverview,
  ownSupportVersion,
  readOwnSupport,
  toRequest,
} from './requests.ts';
import { route } from '../../lib/route.ts';
import {
  getOrdersSupport,
  postOrdersSupportRequests,
  getOrdersSupportRequestsMessages,
  postOrdersSupportRequestsMessages,
  postOrdersSupportRequestsReopen,
  postOrdersSupportRequestsResolve,
  getAdminSupport,
  getAdminSupportByRequestId,
  postAdminSupportMessages,
  postAdminSupportState,
  getAdminOrdersSupport,
} from '../../../contract/support.ts';

// Support after delivery (decision 170). The customer's routes check the order (their
// own, delivered) before anything in the body; the founder's sit behind the admin guard of
// /api/v1/admin and every write is audited.

const customerOf = (request: FastifyRequest): ThreadViewer => ({ side: 'customer', userId: authOf(request).user.id });
const agencyOf = (request: FastifyRequest): ThreadViewer => ({ side: 'agency', userId: authOf(request).user.id });

/** The customer's routes (mounted at /api/v1; in the public OpenAPI document). */
export const supportRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['support'];
  const onRequest = requireUser(deps.db);
  const orderOf = (request: FastifyRequest) => supportOrder(deps.db, (request.params as { orderId: string }).orderId, customerOf(request));

  // The support page a customer reloads, kept per order while its version has not moved and the clock
  // has not reached its next turn (docs/decisions/317-order-reads-table.md).
  route(
    app,
    getOrdersSupport,
    {
      schema: { tags, summary: "The order's support: until when it is covered, the maintenance plan, the requests (newest first)" },
      onRequest,
    },
    async (request, reply) => {
      const viewer = customerOf(request);
      const publicId = request.params.orderId;
      return deps.answers.answer(
        reply,
        `support ${viewer.userId} ${publicId}`,
        () => ownSupportVersion(deps, publicId, viewer),
        async () => {
          const { overview, version, until } = await readOwnSupport(deps, publicId, viewer);
          return { answer: { success: true as const, ...overview }, version, until };
        },
      );
    },
  );

  route(
    app,
    postOrdersSupportRequests,
    {
      schema: {
        tags,
        summary:
          'Opens a support request (bug, change or question), optionally with files of the order; 402 SUPPORT_ENDED once support has ended',
      },
      onRequest,
      config: perSession(20),
    },
    async (request, reply) => {
      const order = await orderOf(request);
      return reply.status(201).send({ success: true as const, request: await openRequest(deps, order, customerOf(request), request.body) });
    },
  );

  route(
    app,
    getOrdersSupportRequestsMessages,
    { schema: { tags, summary: "A request and its thread, oldest first (reading marks the customer's support notices read)" }, onRequest },
    async (request) => {
      const order = await orderOf(request);
      const row = await requestOf(deps.db, order, request.params.requestId);
      return {
        success: true as const,
        request: await toRequest(deps.db, row),
        messages: await listThread(deps, order, row, customerOf(request)),
      };
    },
  );

  route(
    app,
    postOrdersSupportRequestsMessages,
    {
      schema: {
        tags,
        summary:
          'Writes on a request (plain text, line breaks kept; files of the order). A message on a resolved request reopens it; a closed one takes none (409)',
      },
      onRequest,
      config: perSession(60),
    },
    async (request, reply) => {
      const order = await orderOf(request);
      return reply.status(201).send({
        success: true as const,
        ...(await postSupportMessage(deps, order, request.params.requestId, customerOf(request), request.body)),
      });
    },
  );

  route(
    app,
    postOrdersSupportRequestsReopen,
    { schema: { tags, summary: 'Reopens a resolved request (409 from any other state)' }, onRequest, config: perSession(20) },
    async (request) => {
      const order = await orderOf(request);
      return { success: true as const, request: await reopenRequest(deps, order, request.params.requestId) };
    },
  );

  route(
    app,
    postOrdersSupportRequestsResolve,
    {
      schema: {
        tags,
        summary: 'The customer marks an open or in-progress request resolved (409 from any other state); it can then be rated',
      },
      onRequest,
      config: perSession(20),
    },
    async (request) => {
      const order = await orderOf(request);
      return { success: true as const, request: await resolveByCustomer(deps, order, request.params.requestId) };
    },
  );
};

/** The founder's routes (mounted under /api/v1/admin). */
export const adminSupportRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['admin'];
  const security = [{ bearer: [] }];

  route(
    app,
    getAdminSupport,
    {
      schema: {
        tags,
        security,
        summary:
          'The support queue: requests of a state (default: all but closed), the longest-waiting customer first, flagged past the first-response target',
      },
    },
    async (request) => ({ success: true as const, ...(await supportQueue(deps, request.query)) }),
  );

  route(
    app,
    getAdminSupportByRequestId,
    { schema: { tags, security, summary: 'A support request with its order, wait and thread' } },
    async (request) => {
      const order = await orderOfRequest(deps.db, request.params.requestId);
      const row = await requestOf(deps.db, order, request.params.requestId);
      return {
        success: true as const,
        request: await toRequest(deps.db, row),
        item: await queueItem(deps, row.id),
        messages: await listThread(deps, order, row, agencyOf(request)),
      };
    },
  );

  route(
    app,
    postAdminSupportMessages,
    { schema: { tags, security, summary: "Answers a support request (audited; ends the customer's wait)" }, config: perSession(60) },
    async (request, reply) => {
      const order = await orderOfRequest(deps.db, request.params.requestId);
      return reply.status(201).send({
        success: true as const,
        ...(await postSupportMessage(deps, order, request.params.requestId, agencyOf(request), request.body)),
      });
    },
  );

  route(
    app,
    postAdminSupportState,
    {
      schema: { tags, security, summary: 'Sets the state of a support request (audited; the same state again is a 409)' },
      config: perSession(60),
    },
    async (request) => ({
      success: true as const,
      request: await setRequestState(deps, request.params.requestId, request.body.state, authOf(request).user.id),
    }),
  );

  route(
    app,
    getAdminOrdersSupport,
    { schema: { tags, security, summary: "An order's support window, plan and requests (the order page of the back office)" } },
    async (request) => ({
      success: true as const,
      ...(await supportOverview(deps, await workspaceOrder(deps.db, request.params.id, agencyOf(request)))),
    }),
  );
};
