import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { chatStartRequest, chatStartResponse, chatUnreadRequest, chatUnreadResponse } from '../../../contract/chat.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { optionalUser } from '../../plugins/auth.ts';
import { deleteAbandonedEmptyChats, startConversation, unreadForVisitor } from './conversations.ts';

export interface ChatRouteOptions {
  deps: AppDeps;
}

const CLEANUP_EVERY_MS = 60 * 60 * 1000;

export const chatRoutes: FastifyPluginAsyncZod<ChatRouteOptions> = async (app, { deps }) => {
  // Empty chats older than a day are deleted at start and hourly (issue 12 §8); on several
  // instances each runs it: the delete is idempotent.
  const cleanup = () =>
    void deleteAbandonedEmptyChats(deps.database)
      .then((n) => n > 0 && deps.log.info({ deleted: n }, 'chat: empty chats cleaned up'))
      .catch((err) => deps.log.warn({ err: (err as Error).message }, 'chat: empty-chat clean-up failed'));
  const timer = setInterval(cleanup, CLEANUP_EVERY_MS).unref();
  app.addHook('onReady', async () => cleanup());
  app.addHook('onClose', async () => clearInterval(timer));

  app.post(
    '/chat/start',
    {
      preHandler: optionalUser(deps.db),
      config: { rateLimit: { max: deps.config.CHAT_STARTS_MAX_PER_IP_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['chat'],
        summary: 'Start a live chat; the returned chatId is the capability to join it',
        description: "The body's userId (spec: 'guest') is ignored: a bearer token ties the chat to the signed-in account.",
        body: chatStartRequest,
        response: { 200: chatStartResponse, ...errorResponses },
      },
    },
    async (request) => {
      // Not announced to the console: a chat appears there with its first message.
      return { chatId: await startConversation(deps.database, request.auth?.user.id ?? null) };
    },
  );

  app.post(
    '/chat/unread',
    {
      preHandler: optionalUser(deps.db),
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['chat'],
        summary: "Replies the visitor has not seen yet (the widget's badge before it connects)",
        body: chatUnreadRequest,
        response: { 200: chatUnreadResponse, ...errorResponses },
      },
    },
    async (request) =>
      unreadForVisitor(deps.database, request.body.chatId, { userId: request.auth?.user.id ?? null, isAdmin: false }),
  );
};
