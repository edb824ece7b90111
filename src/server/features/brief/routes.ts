import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { getBrief, markBriefOpened, patchBrief, saveBrief } from './brief.ts';
import { route } from '../../lib/route.ts';
import { getOrdersBrief, patchOrdersBrief, putOrdersBrief, getAdminOrdersBrief } from '../../../contract/brief.ts';

const tags = ['brief'];

/** The customer's brief of one of their paid orders. */
export const briefRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const onRequest = requireUser(deps.db);
  route(app, getOrdersBrief, { schema: { tags, summary: 'The brief questions and your answers so far' }, onRequest }, async (request) =>
    getBrief(deps.database, request.params.orderId, authOf(request).user.id),
  );
  // Saved as the customer types (the form debounces): generous, but bounded.
  route(
    app,
    putOrdersBrief,
    {
      schema: {
        tags,
        summary: 'Saves your brief as a draft, or submits it (submit: true); read-only once "UI Started" is completed (409)',
      },
      onRequest,
      config: perSession(120),
    },
    async (request) => saveBrief(deps, authOf(request).user.id, request.params.orderId, request.body),
  );
  // The same budget as PUT: the form saves as the customer types.
  route(
    app,
    patchOrdersBrief,
    {
      schema: {
        tags,
        summary:
          'Saves only the answers given (an empty answer clears it; the others are kept), or submits (submit: true); 409 once "UI Started" is completed',
      },
      onRequest,
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
  route(
    app,
    getAdminOrdersBrief,
    { schema: { tags: ['admin'], security: [{ bearer: [] }], summary: "An order's brief (questions and answers)" } },
    async (request) => {
      const brief = await getBrief(deps.database, request.params.id);
      if (brief.brief?.submittedAt) await markBriefOpened(deps.database, request.params.id);
      return brief;
    },
  );
};
