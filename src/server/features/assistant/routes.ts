import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { createAssistant } from './assistant.ts';
import { route } from '../../lib/route.ts';
import { postChatChat } from '../../../contract/assistant.ts';

export const assistantRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const assistant = await createAssistant(deps);
  app.addHook('onClose', async () => assistant.stop());

  // Registered once, at the spec's path (with its trailing slash); the bare spelling is rewritten to
  // it before routing (assistantUrl, used by app.ts), so both share one handler, schema and rate limit.
  route(
    app,
    postChatChat,
    {
      // Each answer may cost an LLM call: strangers get a handful per minute.
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { tags: ['chat'], summary: 'Ask the AI assistant (answers grounded in the site content; memory is an opaque handle)' },
    },
    async (request) => assistant.answer(request.body.user_input, request.body.memory),
  );
};

/** `/api/v1/chat/chat` (no trailing slash) is the assistant's operation too: rewritten to the spec's path before routing. */
export function assistantUrl(url: string): string {
  return url === '/api/v1/chat/chat' || url.startsWith('/api/v1/chat/chat?')
    ? `/api/v1/chat/chat/${url.slice('/api/v1/chat/chat'.length)}`
    : url;
}
