import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { chatSummary } from './admin-summary.ts';
import { route } from '../../lib/route.ts';
import { getAdminChatsSummary } from '../../../contract/admin-chats.ts';

export const chatSummaryRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminChatsSummary,
    { schema: { tags: ['admin'], security: [{ bearer: [] }], summary: 'Open and unread chats, for the entry point to the chat console' } },
    async () => chatSummary(deps.database),
  );
};
