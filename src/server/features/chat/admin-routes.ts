import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { chatSummaryResponse } from '../../../contract/admin-chats.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { chatSummary } from './admin-summary.ts';

export const chatSummaryRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/chats/summary',
    { schema: { tags: ['admin'], security: [{ bearer: [] }], summary: 'Open and unread chats, for the entry point to the chat console', response: { 200: chatSummaryResponse, ...errorResponses } } },
    async () => chatSummary(deps.database),
  );
};
