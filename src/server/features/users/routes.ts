import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/common.ts';
import { okResponse, otpCreatedAtBody, otpCreatedAtResponse } from '../../../contract/auth.ts';
import { addUserBody, addUserResponse, getUserByIdResponse } from '../../../contract/users.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { authRateLimits } from '../auth/rate-limits.ts';
import { latestCodeCreatedAt } from '../auth/send-login-code.ts';
import { addUser } from './add-user.ts';
import { toUserProfile } from './user-profile.ts';
import { deleteAccount, deletionBlockers, deletionCodeAddress } from './delete-account.ts';
import { deleteAccountBody, deleteAccountResponse, deletionCheckResponse } from '../../../contract/account.ts';
import { sendLoginCode } from '../auth/send-login-code.ts';
import { firstTouchOf } from '../funnel/visitors.ts';

const tags = ['users'];

export const userRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limits = authRateLimits(deps.config);

  app.post(
    '/user/getOtpCreatedAt',
    {
      config: limits.read,
      schema: {
        tags,
        summary: 'When the latest code for an e-mail was created (drives the resend countdown)',
        body: otpCreatedAtBody,
        response: { 200: otpCreatedAtResponse, ...errorResponses },
      },
    },
    async (request) => {
      const createdAt = await latestCodeCreatedAt(deps, request.body.email);
      return { createdAt: createdAt?.toISOString() ?? null, resendAfterSeconds: deps.config.OTP_RESEND_SECONDS };
    },
  );

  app.post(
    '/user/addUser',
    {
      config: limits.verify,
      schema: {
        tags,
        summary: 'Create the account after e-mail proof (needs signupTicket)',
        body: addUserBody,
        response: { 200: addUserResponse, ...errorResponses },
      },
    },
    async (request) => addUser(deps, request.body, { userAgent: request.headers['user-agent'], ip: request.ip }, await firstTouchOf(deps, request)),
  );

  app.get(
    '/user/getUserById',
    {
      preHandler: requireUser(deps.db),
      schema: { tags, summary: 'The signed-in user’s profile', response: { 200: getUserByIdResponse, ...errorResponses } },
    },
    async (request) => {
      return { success: true as const, user: toUserProfile(authOf(request).user) };
    },
  );

  app.get(
    '/user/delete-account',
    {
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'What stops deleting my account now (an order in progress, an active maintenance plan): empty when it can go',
        response: { 200: deletionCheckResponse, ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, blockers: await deletionBlockers(deps, authOf(request)) }),
  );

  app.post(
    '/user/delete-account/code',
    {
      config: limits.send,
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'E-mail the signed-in person a code that confirms deleting their account (it never signs in)',
        description: '429 within the resend wait of the last code, or past the hourly caps.',
        response: { 200: okResponse, ...errorResponses },
      },
    },
    async (request) => {
      const email = await deletionCodeAddress(deps, authOf(request));
      await sendLoginCode(deps, { email, purpose: 'delete', ip: request.ip });
      return { success: true as const, message: `We sent a code to ${email}.` };
    },
  );

  app.post(
    '/user/delete-account',
    {
      config: limits.verify,
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'Delete my account (a fresh sign-in code, or a passkey confirmation in the last 10 minutes)',
        body: deleteAccountBody,
        response: { 200: deleteAccountResponse, ...errorResponses },
      },
    },
    async (request) => {
      await deleteAccount(deps, authOf(request), request.body);
      return { success: true as const };
    },
  );
};
