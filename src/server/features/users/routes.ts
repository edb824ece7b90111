import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { authRateLimits } from '../auth/rate-limits.ts';
import { latestCodeCreatedAt } from '../auth/send-login-code.ts';
import { addUser } from './add-user.ts';
import { toUserProfile } from './user-profile.ts';
import { deleteAccount, deletionBlockers, deletionCodeAddress } from './delete-account.ts';
import { sendLoginCode } from '../auth/send-login-code.ts';
import { firstTouchOf } from '../funnel/visitors.ts';
import { route } from '../../lib/route.ts';
import { postUserGetOtpCreatedAt } from '../../../contract/auth.ts';
import { postUserAddUser, getUserGetUserById } from '../../../contract/users.ts';
import { getUserDeleteAccount, postUserDeleteAccount, postUserDeleteAccountCode } from '../../../contract/account.ts';

const tags = ['users'];

export const userRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limits = authRateLimits(deps.config);

  route(
    app,
    postUserGetOtpCreatedAt,
    { config: limits.read, schema: { tags, summary: 'When the latest code for an e-mail was created (drives the resend countdown)' } },
    async (request) => {
      const createdAt = await latestCodeCreatedAt(deps, request.body.email);
      return { createdAt: createdAt?.toISOString() ?? null, resendAfterSeconds: deps.config.OTP_RESEND_SECONDS };
    },
  );

  route(
    app,
    postUserAddUser,
    { config: limits.verify, schema: { tags, summary: 'Create the account after e-mail proof (needs signupTicket)' } },
    async (request) =>
      addUser(deps, request.body, { userAgent: request.headers['user-agent'], ip: request.ip }, await firstTouchOf(deps, request)),
  );

  route(
    app,
    getUserGetUserById,
    { preHandler: requireUser(deps.db), schema: { tags, summary: 'The signed-in user’s profile' } },
    async (request) => {
      return { success: true as const, user: toUserProfile(authOf(request).user) };
    },
  );

  route(
    app,
    getUserDeleteAccount,
    {
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'What stops deleting my account now (an order in progress, an active maintenance plan): empty when it can go',
      },
    },
    async (request) => ({ success: true as const, blockers: await deletionBlockers(deps, authOf(request)) }),
  );

  route(
    app,
    postUserDeleteAccountCode,
    {
      config: limits.send,
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'E-mail the signed-in person a code that confirms deleting their account (it never signs in)',
        description: '429 within the resend wait of the last code, or past the hourly caps.',
      },
    },
    async (request) => {
      const email = await deletionCodeAddress(deps, authOf(request));
      await sendLoginCode(deps, { email, purpose: 'delete', ip: request.ip });
      return { success: true as const, message: `We sent a code to ${email}.` };
    },
  );

  route(
    app,
    postUserDeleteAccount,
    {
      config: limits.verify,
      preHandler: requireUser(deps.db),
      schema: { tags, summary: 'Delete my account (a fresh sign-in code, or a passkey confirmation in the last 10 minutes)' },
    },
    async (request) => {
      await deleteAccount(deps, authOf(request), request.body);
      return { success: true as const };
    },
  );
};
