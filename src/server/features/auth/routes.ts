import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/common.ts';
import {
  authLoginBody,
  authLoginResponse,
  okResponse,
  sendOtpBody,
  socialProfileResponse,
  oidcProviderParams,
  successResponse,
  verifyOtpBody,
  verifyOtpResponse,
  verifyTokenResponse,
} from '../../../contract/auth.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { authRateLimits } from './rate-limits.ts';
import { sendLoginCode } from './send-login-code.ts';
import { verifyLoginCode } from './verify-login-code.ts';
import { revokeAllSessions, revokeSession } from './sessions.ts';
import { authLogin } from './social/auth-login.ts';
import { getSocialProfile } from './social/social-accounts.ts';

const tags = ['auth'];
const SENT = 'If the address can receive mail, a code is on its way.';

export const authRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limits = authRateLimits(deps.config);

  for (const [path, purpose] of [
    ['/auth/sendLoginOtp', 'login'],
    ['/auth/sendSignupOtp', 'signup'],
  ] as const) {
    app.post(
      path,
      {
        config: limits.send,
        schema: {
          tags,
          summary: purpose === 'login' ? 'E-mail a sign-in code (also resend)' : 'E-mail a sign-up code',
          description: 'Same answer whether or not the account exists. 429 within 20 s of the last code, or past the hourly caps.',
          body: sendOtpBody,
          response: { 200: okResponse, ...errorResponses },
        },
      },
      async (request) => {
        await sendLoginCode(deps, { email: request.body.email, purpose, ip: request.ip });
        return { success: true as const, message: SENT };
      },
    );
  }

  app.post(
    '/auth/verifyOtp',
    {
      config: limits.verify,
      schema: {
        tags,
        summary: 'Check a code: a session token for a known e-mail, a signupTicket for a new one',
        body: verifyOtpBody,
        response: { 200: verifyOtpResponse, ...errorResponses },
      },
    },
    async (request) => verifyLoginCode(deps, { ...request.body, userAgent: request.headers['user-agent'], ip: request.ip }),
  );

  app.get(
    '/auth/verifyToken',
    {
      preHandler: requireUser(deps.db),
      schema: { tags, summary: 'Check the bearer token', security: [{ bearer: [] }], response: { 200: verifyTokenResponse, ...errorResponses } },
    },
    async (request) => ({ success: true as const, userId: authOf(request).user.id }),
  );

  app.post(
    '/auth/authLogin',
    {
      config: limits.verify,
      schema: {
        tags,
        summary: 'Google/Microsoft sign-in: exchange a handoff or a provider ID token',
        description: 'A bare e-mail is refused with 400: only a credential the server can verify is accepted.',
        body: authLoginBody,
        response: { 200: authLoginResponse, ...errorResponses },
      },
    },
    async (request) => authLogin(deps, request.body, { userAgent: request.headers['user-agent'], ip: request.ip }),
  );

  app.post(
    '/auth/logout',
    {
      preHandler: requireUser(deps.db),
      schema: { tags, summary: 'Sign out: revoke this session', response: { 200: successResponse, ...errorResponses } },
    },
    async (request) => {
      await revokeSession(deps.db, authOf(request).sessionId);
      deps.revocations.revoked({ sessionId: authOf(request).sessionId });
      return { success: true as const };
    },
  );

  app.post(
    '/auth/logoutAll',
    {
      preHandler: requireUser(deps.db),
      schema: { tags, summary: 'Sign out everywhere: revoke every session of this user', response: { 200: successResponse, ...errorResponses } },
    },
    async (request) => {
      await revokeAllSessions(deps.db, authOf(request).user.id);
      deps.revocations.revoked({ userId: authOf(request).user.id });
      return { success: true as const };
    },
  );

  app.get(
    '/auth/profile/:provider',
    {
      preHandler: requireUser(deps.db),
      schema: {
        tags,
        summary: 'The Google/Microsoft profile of the signed-in user (demo pages)',
        params: oidcProviderParams,
        response: { 200: socialProfileResponse, ...errorResponses },
      },
    },
    async (request) => getSocialProfile(deps, authOf(request).user.id, request.params.provider),
  );
};
