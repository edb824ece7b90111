import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { authRateLimits } from './rate-limits.ts';
import { sendLoginCode } from './send-login-code.ts';
import { verifyLoginCode } from './verify-login-code.ts';
import { revokeAllSessions, revokeSession } from './sessions.ts';
import { authLogin } from './social/auth-login.ts';
import { getSocialProfile } from './social/social-accounts.ts';
import { route } from '../../lib/route.ts';
import {
  postAuthSendLoginOtp,
  postAuthSendSignupOtp,
  postAuthVerifyOtp,
  getAuthVerifyToken,
  postAuthAuthLogin,
  postAuthLogout,
  postAuthLogoutAll,
  getAuthProfileByProvider,
} from '../../../contract/auth.ts';

const tags = ['auth'];
const SENT = 'If the address can receive mail, a code is on its way.';

export const authRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limits = authRateLimits(deps.config);

  for (const [op, purpose] of [
    [postAuthSendLoginOtp, 'login'],
    [postAuthSendSignupOtp, 'signup'],
  ] as const) {
    route(
      app,
      op,
      {
        config: limits.send,
        schema: {
          tags,
          summary: purpose === 'login' ? 'E-mail a sign-in code (also resend)' : 'E-mail a sign-up code',
          description: 'Same answer whether or not the account exists. 429 within 20 s of the last code, or past the hourly caps.',
        },
      },
      async (request) => {
        await sendLoginCode(deps, { email: request.body.email, purpose, ip: request.ip });
        return { success: true as const, message: SENT };
      },
    );
  }

  route(
    app,
    postAuthVerifyOtp,
    { config: limits.verify, schema: { tags, summary: 'Check a code: a session token for a known e-mail, a signupTicket for a new one' } },
    async (request) => verifyLoginCode(deps, { ...request.body, userAgent: request.headers['user-agent'], ip: request.ip }),
  );

  route(
    app,
    getAuthVerifyToken,
    { preHandler: requireUser(deps.db), schema: { tags, summary: 'Check the bearer token', security: [{ bearer: [] }] } },
    async (request) => ({ success: true as const, userId: authOf(request).user.id }),
  );

  route(
    app,
    postAuthAuthLogin,
    {
      config: limits.verify,
      schema: {
        tags,
        summary: 'Google/Microsoft sign-in: exchange a handoff or a provider ID token',
        description: 'A bare e-mail is refused with 400: only a credential the server can verify is accepted.',
      },
    },
    async (request) => authLogin(deps, request.body, { userAgent: request.headers['user-agent'], ip: request.ip }),
  );

  route(
    app,
    postAuthLogout,
    { preHandler: requireUser(deps.db), schema: { tags, summary: 'Sign out: revoke this session' } },
    async (request) => {
      await revokeSession(deps.db, authOf(request).sessionId);
      deps.revocations.revoked({ sessionId: authOf(request).sessionId });
      return { success: true as const };
    },
  );

  route(
    app,
    postAuthLogoutAll,
    { preHandler: requireUser(deps.db), schema: { tags, summary: 'Sign out everywhere: revoke every session of this user' } },
    async (request) => {
      await revokeAllSessions(deps.db, authOf(request).user.id);
      deps.revocations.revoked({ userId: authOf(request).user.id });
      return { success: true as const };
    },
  );

  route(
    app,
    getAuthProfileByProvider,
    { preHandler: requireUser(deps.db), schema: { tags, summary: 'The Google/Microsoft profile of the signed-in user (demo pages)' } },
    async (request) => getSocialProfile(deps, authOf(request).user.id, request.params.provider),
  );
};
