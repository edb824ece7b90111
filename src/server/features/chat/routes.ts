import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { chatStartRequest, chatStartResponse, chatUnreadRequest, chatUnreadResponse } from '../../../contract/chat.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { optionalUser } from '../../plugins/auth.ts';
import { startConversation, unreadForVisitor } from './conversations.ts';

export interface ChatRouteOptions {
  deps: AppDeps;
  /** Tells connected admins that a chat appeared. */
  announce(chatId: string): Promise<void>;
}

export const chatRoutes: FastifyPluginAsyncZod<ChatRouteOptions> = async (app, { deps, announce }) => {
  app.post(
    '/chat/start',
    {
      preHandler: optionalUser(deps.db),
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['chat'],
        summary: 'Start a live chat; the returned chatId is the capability to join it',
        description: "The body's userId (spec: 'guest') is ignored: a bearer token ties the chat to the signed-in account.",
        body: chatStartRequest,
        response: { 200: chatStartResponse, ...errorResponses },
      },
    },
    async (request) => {
      const chatId = await startConversation(deps.database, request.auth?.user.id ?? null);
      await announce(chatId).catch((err) => request.log.warn({ err }, 'chat: announce failed'));
      return { chatId };
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
