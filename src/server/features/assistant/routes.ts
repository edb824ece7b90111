import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assistantRequest, assistantResponse } from '../../../contract/assistant.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { createAssistant } from './assistant.ts';
import { route } from '../../lib/route.ts';
import { postChatChat } from '../../../contract/assistant.ts';

export const assistantRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const assistant = await createAssistant(deps);
  app.addHook('onClose', async () => assistant.stop());

  const handler = async (request: { body: { user_input: string; memory?: unknown } }) => assistant.answer(request.body.user_input, request.body.memory);
  // The spec's path ends with a slash; the bare path answers too, without a second OpenAPI entry.
  route(app, postChatChat, { config: { rateLimit: { max: 20, timeWindow: '1 minute' } }, schema: { hide: true } }, handler);
  app.post(
    '/chat/chat/',
    {
      // Each answer may cost an LLM call: strangers get a handful per minute.
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['chat'],
        summary: 'Ask the AI assistant (answers grounded in the site content; memory is an opaque handle)',
        body: assistantRequest,
        response: { 200: assistantResponse, ...errorResponses },
      },
    },
    handler,
  );
};
