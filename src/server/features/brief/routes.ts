import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { briefParams, briefPatchBody, briefPutBody, briefResponse } from '../../../contract/brief.ts';
import { errorResponses } from '../../../contract/common.ts';
import { orderParams } from '../../../contract/admin-orders.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { getBrief, patchBrief, saveBrief } from './brief.ts';

const tags = ['brief'];

/** The customer's brief of one of their paid orders. */
export const briefRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const onRequest = requireUser(deps.db);
  app.get(
    '/orders/:orderId/brief',
    { schema: { tags, summary: 'The brief questions and your answers so far', params: briefParams, response: { 200: briefResponse, ...errorResponses } }, onRequest },
    async (request) => getBrief(deps.db, request.params.orderId, authOf(request).user.id),
  );
  app.put(
    '/orders/:orderId/brief',
    {
      schema: {
        tags,
        summary: 'Saves your brief as a draft, or submits it (submit: true); read-only once "UI Started" is completed (409)',
        params: briefParams,
        body: briefPutBody,
        response: { 200: briefResponse, ...errorResponses },
      },
      onRequest,
      // Saved as the customer types (the form debounces): generous, but bounded.
      config: perSession(120),
    },
    async (request) => saveBrief(deps, authOf(request).user.id, request.params.orderId, request.body),
  );
  app.patch(
    '/orders/:orderId/brief',
    {
      schema: {
        tags,
        summary: 'Saves only the answers given (an empty answer clears it; the others are kept), or submits (submit: true); 409 once "UI Started" is completed',
        params: briefParams,
        body: briefPatchBody,
        response: { 200: briefResponse, ...errorResponses },
      },
      onRequest,
      // The same budget as PUT: the form saves as the customer types.
      config: perSession(120),
    },
    async (request) => patchBrief(deps, authOf(request).user.id, request.params.orderId, request.body),
  );
};

/**
 * Back office (mounted under /admin, whose guard admits admins only): read the brief of any paid
 * order. The parameter is `:id` like every other /admin/orders/:id route — one name per position in
 * Fastify's route tree (mixing names there shows as ":id|:orderId" to the route walks).
 */
export const adminBriefRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/orders/:id/brief',
    { schema: { tags: ['admin'], security: [{ bearer: [] }], summary: "An order's brief (questions and answers)", params: orderParams, response: { 200: briefResponse, ...errorResponses } } },
    async (request) => getBrief(deps.db, request.params.id),
  );
};
