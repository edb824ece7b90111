import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { optionalUser } from '../../plugins/auth.ts';
import { sendApiNotFound } from '../../plugins/errors.ts';
import { deleteAbandonedEmptyChats, startConversation, unreadForVisitor } from './conversations.ts';
import { route } from '../../lib/route.ts';
import { postChatStart, postChatUnread, postRoot } from '../../../contract/chat.ts';

export interface ChatRouteOptions {
  deps: AppDeps;
}

const CLEANUP_EVERY_MS = 60 * 60 * 1000;
/** The operation's name for its rate-limit counter, which POST / shares (decision 091, 107). */
const START_OPERATION = `${postChatStart.method} ${postChatStart.path}`;

/** Starting a chat: the route's options, for /api/v1/chat/start and the spec's POST / alike. */
const startChatRoute = (deps: AppDeps) => ({
  preHandler: optionalUser(deps.db),
  config: { rateLimit: { max: deps.config.CHAT_STARTS_MAX_PER_IP_MINUTE, timeWindow: '1 minute' }, operation: START_OPERATION },
  schema: {
    tags: ['chat'],
    summary: 'Start a live chat; the returned chatId is the capability to join it',
    description: "The body's userId (spec: 'guest') is ignored: a bearer token ties the chat to the signed-in account.",
  },
});

// Not announced to the console: a chat appears there with its first message.
const startChat = (deps: AppDeps) => async (request: FastifyRequest) => ({
  chatId: await startConversation(deps.database, request.auth?.user.id ?? null),
});

export const chatRoutes: FastifyPluginAsyncZod<ChatRouteOptions> = async (app, { deps }) => {
  // Empty chats older than a day are deleted at start and hourly; on several
  // instances each runs it: the delete is idempotent.
  const cleanup = () =>
    void deleteAbandonedEmptyChats(deps.database)
      .then((n) => n > 0 && deps.log.info({ deleted: n }, 'chat: empty chats cleaned up'))
      .catch((err) => deps.log.warn({ err: (err as Error).message }, 'chat: empty-chat clean-up failed'));
  const timer = setInterval(cleanup, CLEANUP_EVERY_MS).unref();
  app.addHook('onReady', async () => cleanup());
  app.addHook('onClose', async () => clearInterval(timer));

  route(app, postChatStart, startChatRoute(deps), startChat(deps));

  route(
    app,
    postChatUnread,
    {
      preHandler: optionalUser(deps.db),
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags: ['chat'], summary: "Replies the visitor has not seen yet (the widget's badge before it connects)" },
    },
    async (request) => unreadForVisitor(deps.database, request.body.chatId, { userId: request.auth?.user.id ?? null, isAgency: false }),
  );
};

const isJson = (contentType: string | undefined) => /^application\/json\s*(;|$)/i.test(contentType ?? '');

/**
 * Spec §7: the guest chat test page "posts … to the backend root with {userId}, reading chatId".
 * A JSON `POST /` is chat/start — the same options, handler, limit (one counter) and answer
 * (decision 107). Any other POST / is what it was: the API's JSON 404, before any limit is counted.
 */
export const chatRootRoute: FastifyPluginAsyncZod<ChatRouteOptions> = async (app, { deps }) => {
  const options = startChatRoute(deps);
  route(
    app,
    postRoot,
    {
      ...options,
      schema: {
        ...options.schema,
        summary: "Start a live chat at the site's root (the spec's guest chat test page); the same as /api/v1/chat/start",
      },
      onRequest: (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
        if (isJson(request.headers['content-type'])) return done();
        void reply.status(404).send(sendApiNotFound(request.method, request.url));
      },
    },
    startChat(deps),
  );
};
