import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionIdParams, sessionListResponse } from '../../../contract/account.ts';
import { successResponse } from '../../../contract/auth.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { listSessions, signOutSession } from './session-list.ts';

const tags = ['auth'];

/** "My sessions": GET /auth/sessions and DELETE /auth/sessions/{id}. */
export const sessionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/auth/sessions',
    {
      config: perSession(60),
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Where I am signed in: live sessions with device, city and last seen, newest first',
        security: [{ bearer: [] }],
        response: { 200: sessionListResponse, ...errorResponses },
      },
    },
    async (request) => {
      const auth = authOf(request);
      return { sessions: await listSessions(deps.db, auth.user.id, auth.sessionId) };
    },
  );

  app.delete(
    '/auth/sessions/:id',
    {
      config: perSession(30),
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Sign one of my sessions out (its open sockets close at once); another user’s session is 404',
        security: [{ bearer: [] }],
        params: sessionIdParams,
        response: { 200: successResponse, ...errorResponses },
      },
    },
    async (request) => {
      await signOutSession(deps, authOf(request).user.id, request.params.id);
      return { success: true as const };
    },
  );
};
