import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { authRateLimits } from '../auth/rate-limits.ts';
import { confirmEmailChange, requestEmailChange } from './email-change.ts';
import { updateProfile } from './update-profile.ts';
import { route } from '../../lib/route.ts';
import { patchUserProfile, postUserEmailChange, postUserEmailChangeConfirm } from '../../../contract/account.ts';

const tags = ['users'];

/** Correcting one's details and changing one's e-mail (decision 193). */
export const accountRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limits = authRateLimits(deps.config);

  route(
    app,
    patchUserProfile,
    {
      config: perSession(30),
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Correct my name, phone (country code and number together) or address',
        description: 'Unknown fields are refused (400). Text is stored as typed and shown escaped.',
        security: [{ bearer: [] }],
      },
    },
    async (request) => updateProfile(deps, authOf(request).user.id, request.body),
  );

  route(
    app,
    postUserEmailChange,
    {
      config: limits.send,
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'E-mail a code to the new address (the same answer whether or not it has an account)',
        description:
          '400 for the current address, 403 for a back-office account, 429 within 20 s of the last code or past the hourly caps.',
        security: [{ bearer: [] }],
      },
    },
    async (request) => requestEmailChange(deps, authOf(request).user, request.body.email, request.ip),
  );

  route(
    app,
    postUserEmailChangeConfirm,
    {
      config: limits.verify,
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Finish the e-mail change with the code from the new mailbox; the old address is told',
        description: '400 for a wrong, expired or used code (five tries), 409 when the address got an account meanwhile.',
        security: [{ bearer: [] }],
      },
    },
    async (request) => confirmEmailChange(deps, authOf(request).user, request.body.code),
  );
};
