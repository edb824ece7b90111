import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailChangeBody, emailChangeConfirmBody, emailChangeResponse, profileResponse, updateProfileBody } from '../../../contract/account.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { authRateLimits } from '../auth/rate-limits.ts';
import { confirmEmailChange, requestEmailChange } from './email-change.ts';
import { updateProfile } from './update-profile.ts';

const tags = ['users'];

/** Correcting one's details and changing one's e-mail (decision 193). */
export const accountRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limits = authRateLimits(deps.config);

  app.patch(
    '/user/profile',
    {
      config: perSession(30),
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Correct my name, phone (country code and number together) or address',
        description: 'Unknown fields are refused (400). Text is stored as typed and shown escaped.',
        security: [{ bearer: [] }],
        body: updateProfileBody,
        response: { 200: profileResponse, ...errorResponses },
      },
    },
    async (request) => updateProfile(deps, authOf(request).user.id, request.body),
  );

  app.post(
    '/user/email-change',
    {
      config: limits.send,
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'E-mail a code to the new address (the same answer whether or not it has an account)',
        description: '400 for the current address, 403 for a back-office account, 429 within 20 s of the last code or past the hourly caps.',
        security: [{ bearer: [] }],
        body: emailChangeBody,
        response: { 200: emailChangeResponse, ...errorResponses },
      },
    },
    async (request) => requestEmailChange(deps, authOf(request).user, request.body.email, request.ip),
  );

  app.post(
    '/user/email-change/confirm',
    {
      config: limits.verify,
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Finish the e-mail change with the code from the new mailbox; the old address is told',
        description: '400 for a wrong, expired or used code (five tries), 409 when the address got an account meanwhile.',
        security: [{ bearer: [] }],
        body: emailChangeConfirmBody,
        response: { 200: profileResponse, ...errorResponses },
      },
    },
    async (request) => confirmEmailChange(deps, authOf(request).user, request.body.code),
  );
};
