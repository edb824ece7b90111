import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponses } from "../../../contract/common.ts";
import {
  addonParams,
  adminAddonResponse,
  adminAddonsResponse,
  adminCreateChangeBody,
  changeOrderParams,
  changeParams,
  changeResponse,
  changesResponse,
  createAddonBody,
  createChangeBody,
  declineChangeBody,
  patchAddonBody,
  publicAddonsQuery,
  publicAddonsResponse,
  quoteChangeBody,
} from "../../../contract/changes.ts";
import type { AppDeps } from "../../deps.ts";
import { perSession } from "../../lib/per-session-limit.ts";
import type { ThreadViewer } from "../../lib/workspace-order.ts";
import { authOf, requireUser } from "../../plugins/auth.ts";
import {
  createAddon,
  listAddons,
  publicAddons,
  toAddon,
  updateAddon,
} from "./addons.ts";
import {
  agencyCreateChange,
  changeOrder,
  type ChangeOrder,
  declineChange,
  listChanges,
  quoteChange,
  requestChange,
  withdrawChange,
} from "./changes.ts";

// Change requests and add-ons (docs/decisions/250-change-requests.md). The customer's routes find
// the order (their own, paid) before reading anything else: another customer's order is a 404.

const customerOf = (request: FastifyRequest): ThreadViewer => ({
  side: "customer",
  userId: authOf(request).user.id,
});

/** The customer's routes and the public add-ons list (mounted at /api/v1). */
/** Reading an order's changes in the app: its change notices for that side need not be mailed (notices). */
async function markSeen<T extends ChangeOrder>(deps: AppDeps, order: T, side: "customer" | "agency"): Promise<T> {
  await deps.events.publishAlone("order.seen", { orderId: order.orderId, side, what: "changes", at: new Date() });
  return order;
}

export const changeRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  const tags = ["changes"];
  const onRequest = requireUser(deps.db);
  const orderOf = (request: FastifyRequest) =>
    changeOrder(
      deps.db,
      (request.params as { orderId: string }).orderId,
      customerOf(request),
    );

  app.get(
    "/orders/:orderId/changes",
    {
      schema: {
        tags,
        summary:
          "The order's change requests, oldest first (amounts in minor units, tax excluded)",
        params: changeOrderParams,
        response: { 200: changesResponse, ...errorResponses },
      },
      onRequest,
    },
    async (request) => ({
      changes: await listChanges(deps.db, await markSeen(deps, await orderOf(request), "customer")),
    }),
  );

  app.post(
    "/orders/:orderId/changes",
    {
      schema: {
        tags,
        summary:
          "Asks for a change (409 once the order is delivered); from an add-on it arrives quoted at its price and days",
        params: changeOrderParams,
        body: createChangeBody,
        response: { 201: changeResponse, ...errorResponses },
      },
      onRequest,
      config: perSession(20),
    },
    async (request, reply) => {
      const order = await orderOf(request);
      return reply
        .status(201)
        .send({
          change: await requestChange(
            deps,
            order,
            authOf(request).user.id,
            request.body,
          ),
        });
    },
  );

  app.post(
    "/orders/:orderId/changes/:changeId/decline",
    {
      schema: {
        tags,
        summary:
          "Declines a quote, with an optional reason (409 once accepted, declined or withdrawn)",
        params: changeParams,
        body: declineChangeBody,
        response: { 200: changeResponse, ...errorResponses },
      },
      onRequest,
      config: perSession(20),
    },
    async (request) => ({
      change: await declineChange(
        deps,
        await orderOf(request),
        request.params.changeId,
        request.body?.reason,
      ),
    }),
  );

  app.post(
    "/orders/:orderId/changes/:changeId/withdraw",
    {
      schema: {
        tags,
        summary:
          "Its author takes a change back before it is accepted (409 otherwise)",
        params: changeParams,
        response: { 200: changeResponse, ...errorResponses },
      },
      onRequest,
      config: perSession(20),
    },
    async (request) => ({
      change: await withdrawChange(
        deps,
        await orderOf(request),
        request.params.changeId,
        "customer",
      ),
    }),
  );

  app.get(
    "/addons",
    {
      schema: {
        tags,
        summary:
          "The active add-ons priced in a currency like the plan (minor units, tax excluded)",
        querystring: publicAddonsQuery,
        response: { 200: publicAddonsResponse, ...errorResponses },
      },
    },
    async (request) => publicAddons(deps, request.query.currency),
  );
};

/** The founder's routes (mounted under /api/v1/admin, behind its guard; permissions.ts says who). */
export const adminChangeRoutes: FastifyPluginAsyncZod<{
  deps: AppDeps;
}> = async (app, { deps }) => {
  const tags = ["admin"];
  const security = [{ bearer: [] }];
  const agencyOrder = (request: FastifyRequest) =>
    changeOrder(deps.db, (request.params as { orderId: string }).orderId, {
      side: "agency",
      userId: authOf(request).user.id,
    });

  app.get(
    "/orders/:orderId/changes",
    {
      schema: {
        tags,
        security,
        summary: "An order's change requests",
        params: changeOrderParams,
        response: { 200: changesResponse, ...errorResponses },
      },
    },
    async (request) => ({
      changes: await listChanges(deps.db, await markSeen(deps, await agencyOrder(request), "agency")),
    }),
  );

  app.post(
    "/orders/:orderId/changes",
    {
      schema: {
        tags,
        security,
        summary:
          "Raises a change: quoted with an amount, included (no charge) when marked so, else requested. Audited",
        params: changeOrderParams,
        body: adminCreateChangeBody,
        response: { 201: changeResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({
          change: await agencyCreateChange(
            deps,
            await agencyOrder(request),
            authOf(request).user.id,
            request.body,
          ),
        }),
  );

  app.post(
    "/orders/:orderId/changes/:changeId/quote",
    {
      schema: {
        tags,
        security,
        summary:
          "Quotes or re-quotes a change while it is not accepted (409 after). Audited",
        params: changeParams,
        body: quoteChangeBody,
        response: { 200: changeResponse, ...errorResponses },
      },
    },
    async (request) => ({
      change: await quoteChange(
        deps,
        await agencyOrder(request),
        request.params.changeId,
        authOf(request).user.id,
        request.body,
      ),
    }),
  );

  app.get(
    "/addons",
    {
      schema: {
        tags,
        security,
        summary: "The add-ons catalogue, inactive ones too",
        response: { 200: adminAddonsResponse, ...errorResponses },
      },
    },
    async () => ({
      addons: (await listAddons(deps.db)).map(toAddon),
    }),
  );

  app.post(
    "/addons",
    {
      schema: {
        tags,
        security,
        summary:
          "Adds an add-on (price in base-currency cents). Owner only; audited",
        body: createAddonBody,
        response: { 201: adminAddonResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({
          addon: await createAddon(deps, authOf(request).user.id, request.body),
        }),
  );

  app.patch(
    "/addons/:id",
    {
      schema: {
        tags,
        security,
        summary: "Edits an add-on (or switches it off). Owner only; audited",
        params: addonParams,
        body: patchAddonBody,
        response: { 200: adminAddonResponse, ...errorResponses },
      },
    },
    async (request) => ({
      addon: await updateAddon(
        deps,
        authOf(request).user.id,
        request.params.id,
        request.body,
      ),
    }),
  );
};
