import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getUserNotificationPreferences, putUserNotificationPreferences } from '../../../contract/notification-preferences.ts';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { route } from '../../lib/route.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { readPreferences, writePreferences } from './preferences.ts';

const tags = ['users'];
const security = [{ bearer: [] }];

/** A person's notification choices (docs/decisions/342-notification-preferences.md). */
export const notificationPreferenceRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getUserNotificationPreferences,
    {
      config: perSession(60),
      preHandler: requireUser(deps.db),
      schema: { tags, summary: 'My notification choices: every kind on every channel (email, push, whatsapp), and quiet hours', security },
    },
    async (request) => readPreferences(deps.db, authOf(request).user.id),
  );

  route(
    app,
    putUserNotificationPreferences,
    {
      config: perSession(30),
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Change my notification choices; a kind or channel left out keeps its value',
        description: '400 for an unknown kind or channel, a time not HH:MM or an unknown time zone.',
        security,
      },
    },
    async (request) => writePreferences(deps.db, authOf(request).user.id, request.body),
  );
};
