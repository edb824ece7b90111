import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deletePushSubscriptionsById,
  getPushKey,
  getPushSubscriptions,
  postPushSubscriptions,
} from '../../../contract/notification-preferences.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { route } from '../../lib/route.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import type { PushSender } from '../../integrations/push/web-push.ts';
import { addDevice, listDevices, removeDevice } from './devices.ts';
import { isAllowedPushService } from './vapid.ts';

const tags = ['push'];
const security = [{ bearer: [] }];

/** A signed-in person's devices that receive push (docs/decisions/343-web-push.md). */
export const pushRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; sender: PushSender | null }> = async (app, { deps, sender }) => {
  const on = () => {
    if (!sender) throw notFound('Push notifications are not set up on this server.');
    return sender;
  };

  route(
    app,
    getPushKey,
    {
      config: perSession(60),
      schema: {
        tags,
        summary: 'The VAPID public key the browser subscribes with',
        description: '404 when the server has no VAPID keys (production without VAPID_* set).',
      },
    },
    async () => ({
      publicKey: on().publicKey,
    }),
  );

  route(
    app,
    postPushSubscriptions,
    {
      config: perSession(20),
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Allow push on this device: store the browser’s push subscription with a device name',
        description:
          '400 for an endpoint outside the known push services (PUSH_SERVICE_HOSTS). The same endpoint again replaces its keys and owner.',
        security,
      },
    },
    async (request, reply) => {
      on();
      if (!isAllowedPushService(request.body.endpoint, deps.config.PUSH_SERVICE_HOSTS))
        throw badRequest('This push service is not supported.');
      const created = await addDevice(deps.db, authOf(request).user.id, request.body, request.headers['user-agent']);
      return reply.status(201).send(created);
    },
  );

  route(
    app,
    getPushSubscriptions,
    {
      config: perSession(60),
      preHandler: requireUser(deps.db),
      schema: { tags, summary: 'My devices that receive push notifications', security },
    },
    async (request) => ({
      subscriptions: await listDevices(deps.db, authOf(request).user.id),
    }),
  );

  route(
    app,
    deletePushSubscriptionsById,
    {
      config: perSession(30),
      preHandler: requireUser(deps.db),
      schema: { tags, summary: 'Stop push to one of my devices; another person’s is 404', security },
    },
    async (request) => {
      await removeDevice(deps.db, authOf(request).user.id, request.params.id);
      return { success: true as const };
    },
  );
};
