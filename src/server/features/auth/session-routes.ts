import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { listSessions, signOutSession } from './session-list.ts';
import { route } from '../../lib/route.ts';
import { getAuthSessions } from '../../../contract/account.ts';
import { deleteAuthSessionsById } from '../../../contract/account.ts';

const tags = ['auth'];

/** "My sessions": GET /auth/sessions and DELETE /auth/sessions/{id}. */
export const sessionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAuthSessions,
    {
      config: perSession(60),
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Where I am signed in: live sessions with device, city and last seen, newest first',
        security: [{ bearer: [] }],
      },
    },
    async (request) => {
      const auth = authOf(request);
      return { sessions: await listSessions(deps.db, auth.user.id, auth.sessionId) };
    },
  );

  route(
    app,
    deleteAuthSessionsById,
    {
      config: perSession(30),
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Sign one of my sessions out (its open sockets close at once); another user’s session is 404',
        security: [{ bearer: [] }],
      },
    },
    async (request) => {
      await signOutSession(deps, authOf(request).user.id, request.params.id);
      return { success: true as const };
    },
  );
};
