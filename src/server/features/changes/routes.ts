import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import type { ThreadViewer } from '../../lib/workspace-order.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { createAddon, listAddons, publicAddons, toAddon, updateAddon } from './addons.ts';
import {
  agencyCreateChange,
  changeOrder,
  type ChangeOrder,
  declineChange,
  listChanges,
  quoteChange,
  requestChange,
  withdrawChange,
} from './changes.ts';
import { route } from '../../lib/route.ts';
import {
  getOrdersChanges,
  postOrdersChanges,
  postOrdersChangesDecline,
  postOrdersChangesWithdraw,
  getAddons,
  getAdminOrdersChanges,
  postAdminOrdersChanges,
  postAdminOrdersChangesQuote,
  getAdminAddons,
  postAdminAddons,
  patchAdminAddonsById,
} from '../../../contract/changes.ts';

// Change requests and add-ons (docs/decisions/250-change-requests.md). The customer's routes find
// the order (their own, paid) before reading anything else: another customer's order is a 404.

const customerOf = (request: FastifyRequest): ThreadViewer => ({
  side: 'customer',
  userId: authOf(request).user.id,
});

/** The customer's routes and the public add-ons list (mounted at /api/v1). */
/** Reading an order's changes in the app: its change notices for that side need not be mailed (notices). */
async function markSeen<T extends ChangeOrder>(deps: AppDeps, order: T, side: 'customer' | 'agency'): Promise<T> {
  await deps.events.publishAlone('order.seen', { orderId: order.orderId, side, what: 'changes', at: new Date() });
  return order;
}

export const changeRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['changes'];
  const onRequest = requireUser(deps.db);
  const orderOf = (request: FastifyRequest) => changeOrder(deps.db, (request.params as { orderId: string }).orderId, customerOf(request));

  route(
    app,
    getOrdersChanges,
    { schema: { tags, summary: "The order's change requests, oldest first (amounts in minor units, tax excluded)" }, onRequest },
    async (request) => ({
      changes: await listChanges(deps.db, await markSeen(deps, await orderOf(request), 'customer')),
    }),
  );

  route(
    app,
    postOrdersChanges,
    {
      schema: {
        tags,
        summary: 'Asks for a change (409 once the order is delivered); from an add-on it arrives quoted at its price and days',
      },
      onRequest,
      config: perSession(20),
    },
    async (request, reply) => {
      const order = await orderOf(request);
      return reply.status(201).send({
        change: await requestChange(deps, order, authOf(request).user.id, request.body),
      });
    },
  );

  route(
    app,
    postOrdersChangesDecline,
    {
      schema: { tags, summary: 'Declines a quote, with an optional reason (409 once accepted, declined or withdrawn)' },
      onRequest,
      config: perSession(20),
    },
    async (request) => ({
      change: await declineChange(deps, await orderOf(request), request.params.changeId, request.body?.reason),
    }),
  );

  route(
    app,
    postOrdersChangesWithdraw,
    {
      schema: { tags, summary: 'Its author takes a change back before it is accepted (409 otherwise)' },
      onRequest,
      config: perSession(20),
    },
    async (request) => ({
      change: await withdrawChange(deps, await orderOf(request), request.params.changeId, 'customer'),
    }),
  );

  route(
    app,
    getAddons,
    { schema: { tags, summary: 'The active add-ons priced in a currency like the plan (minor units, tax excluded)' } },
    async (request) => publicAddons(deps, request.query.currency),
  );
};

/** The founder's routes (mounted under /api/v1/admin, behind its guard; permissions.ts says who). */
export const adminChangeRoutes: FastifyPluginAsyncZod<{
  deps: AppDeps;
}> = async (app, { deps }) => {
  const tags = ['admin'];
  const security = [{ bearer: [] }];
  const agencyOrder = (request: FastifyRequest) =>
    changeOrder(deps.db, (request.params as { orderId: string }).orderId, {
      side: 'agency',
      userId: authOf(request).user.id,
    });

  route(app, getAdminOrdersChanges, { schema: { tags, security, summary: "An order's change requests" } }, async (request) => ({
    changes: await listChanges(deps.db, await markSeen(deps, await agencyOrder(request), 'agency')),
  }));

  route(
    app,
    postAdminOrdersChanges,
    {
      schema: {
        tags,
        security,
        summary: 'Raises a change: quoted with an amount, included (no charge) when marked so, else requested. Audited',
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        change: await agencyCreateChange(deps, await agencyOrder(request), authOf(request).user.id, request.body),
      }),
  );

  route(
    app,
    postAdminOrdersChangesQuote,
    { schema: { tags, security, summary: 'Quotes or re-quotes a change while it is not accepted (409 after). Audited' } },
    async (request) => ({
      change: await quoteChange(deps, await agencyOrder(request), request.params.changeId, authOf(request).user.id, request.body),
    }),
  );

  route(app, getAdminAddons, { schema: { tags, security, summary: 'The add-ons catalogue, inactive ones too' } }, async () => ({
    addons: (await listAddons(deps.db)).map(toAddon),
  }));

  route(
    app,
    postAdminAddons,
    { schema: { tags, security, summary: 'Adds an add-on (price in base-currency cents). Owner only; audited' } },
    async (request, reply) =>
      reply.status(201).send({
        addon: await createAddon(deps, authOf(request).user.id, request.body),
      }),
  );

  route(
    app,
    patchAdminAddonsById,
    { schema: { tags, security, summary: 'Edits an add-on (or switches it off). Owner only; audited' } },
    async (request) => ({
      addon: await updateAddon(deps, authOf(request).user.id, request.params.id, request.body),
    }),
  );
};
