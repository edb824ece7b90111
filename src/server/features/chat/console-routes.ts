import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { route } from '../../lib/route.ts';
import {
  deleteAdminCannedRepliesById,
  getAdminCannedReplies,
  getAdminChatAvailability,
  patchAdminCannedRepliesById,
  postAdminCannedReplies,
  putAdminChatAvailability,
} from '../../../contract/chat-console.ts';
import { createAvailability } from './availability.ts';
import { createCannedReply, deleteCannedReply, listCannedReplies, updateCannedReply } from './canned-replies.ts';

// The chat console's availability switch and canned replies (docs/decisions/347-chat-availability-canned-replies-csat.md),
// under /api/v1/admin (the back office's guard; who may call what: admin/permissions.ts).

const tags = ['admin'];
const security = [{ bearer: [] }];

export const chatConsoleRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const availability = createAvailability(deps);
  route(
    app,
    getAdminChatAvailability,
    { schema: { tags, security, summary: 'Whether the agency answers the live chat now: the switch and the business hours' } },
    async () => availability.status(),
  );
  route(
    app,
    putAdminChatAvailability,
    { schema: { tags, security, summary: 'Sets the agency "available" or "away" in the live chat; audited' } },
    async (request) => availability.set(request.body.available, authOf(request).user.id),
  );

  route(
    app,
    getAdminCannedReplies,
    { schema: { tags, security, summary: 'The canned replies of the chat console, by shortcut' } },
    async () => ({
      replies: await listCannedReplies(deps.db),
    }),
  );
  route(
    app,
    postAdminCannedReplies,
    { schema: { tags, security, summary: 'Adds a canned reply (owner); 409 when the shortcut is taken; audited' } },
    async (request, reply) => reply.status(201).send({ reply: await createCannedReply(deps.db, authOf(request).user.id, request.body) }),
  );
  route(
    app,
    patchAdminCannedRepliesById,
    { schema: { tags, security, summary: 'Edits a canned reply (owner); audited' } },
    async (request) => ({
      reply: await updateCannedReply(deps.db, authOf(request).user.id, request.params.id, request.body),
    }),
  );
  route(
    app,
    deleteAdminCannedRepliesById,
    { schema: { tags, security, summary: 'Deletes a canned reply (owner); audited' } },
    async (request) => {
      await deleteCannedReply(deps.db, authOf(request).user.id, request.params.id);
      return { success: true as const };
    },
  );
};
