import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/common.ts';
import { otpCreatedAtBody, otpCreatedAtResponse } from '../../../contract/auth.ts';
import { addUserBody, addUserResponse, getUserByIdResponse } from '../../../contract/users.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { authRateLimits } from '../auth/rate-limits.ts';
import { latestCodeCreatedAt } from '../auth/send-login-code.ts';
import { addUser } from './add-user.ts';
import { toUserProfile } from './user-profile.ts';
import { deleteAccount } from './delete-account.ts';
import { deleteAccountBody, deleteAccountResponse } from '../../../contract/account.ts';
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
