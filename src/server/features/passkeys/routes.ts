import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { authRateLimits } from '../auth/rate-limits.ts';
import { loginOptions, loginVerify } from './passkey-sign-in.ts';
import { passkeysOf, toSummary } from './passkey-store.ts';
import { recoveryCodesLeft } from './recovery-codes.ts';
import { registrationOptions, verifyRegistration } from './registration.ts';
import { removePasskey } from './remove-passkey.ts';
import { stepUpOptions, stepUpWithPasskey, stepUpWithRecoveryCode } from './step-up.ts';
import { route } from '../../lib/route.ts';
import {
  getAuthPasskeys,
  postAuthPasskeysRegistrationOptions,
  postAuthPasskeysRegistrationVerify,
  postAuthPasskeysLoginOptions,
  postAuthPasskeysLoginVerify,
  postAuthStepUpOptions,
  postAuthStepUpVerify,
} from '../../../contract/passkeys.ts';
import { deleteAuthPasskeysById } from '../../../contract/auth.ts';

const tags = ['passkeys'];
const security = [{ bearer: [] }];

// Passkeys (WebAuthn) and the step-up, decision 190. Every ceremony is two
// calls: options (a single-use challenge, five minutes) and verify (the browser's answer to it).
export const passkeyRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limits = authRateLimits(deps.config);
  const signedIn = requireUser(deps.db);

  route(
    app,
    getAuthPasskeys,
    { preHandler: signedIn, schema: { tags, security, summary: 'My passkeys, and how many recovery codes are left' } },
    async (request) => {
      const { user } = authOf(request);
      const rows = await passkeysOf(deps.db, user.id);
      return { passkeys: rows.map(toSummary), recoveryCodesLeft: await recoveryCodesLeft(deps.db, user.id) };
    },
  );

  route(
    app,
    postAuthPasskeysRegistrationOptions,
    {
      preHandler: signedIn,
      config: limits.verify,
      schema: {
        tags,
        security,
        summary: 'Options for adding a passkey (navigator.credentials.create)',
        description:
          '403 STEP_UP_REQUIRED for a back-office account that already has a passkey, unless this session was confirmed within ADMIN_STEP_UP_HOURS.',
      },
    },
    async (request) => registrationOptions(deps, authOf(request)),
  );

  route(
    app,
    postAuthPasskeysRegistrationVerify,
    {
      preHandler: signedIn,
      config: limits.verify,
      schema: {
        tags,
        security,
        summary: 'Store the new passkey',
        description:
          "A back-office account's first passkey also answers ten one-time recovery codes (shown once) and confirms this session.",
      },
    },
    async (request) => verifyRegistration(deps, authOf(request), request.body),
  );

  route(
    app,
    deleteAuthPasskeysById,
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary: 'Remove one of my passkeys',
        description:
          "404 for a passkey that is not the caller's. 409 for a back-office account's last passkey while ADMIN_STEP_UP=passkey.",
      },
    },
    async (request) => removePasskey(deps, authOf(request), request.params.id),
  );

  route(
    app,
    postAuthPasskeysLoginOptions,
    {
      config: limits.verify,
      schema: { tags, summary: 'Options for signing in with a passkey (discoverable: the browser offers the passkeys it has)' },
    },
    async () => loginOptions(deps),
  );

  route(
    app,
    postAuthPasskeysLoginVerify,
    { config: limits.verify, schema: { tags, summary: 'Sign in with a passkey: the same session token as verifyOtp' } },
    async (request) => loginVerify(deps, request.body.response, { userAgent: request.headers['user-agent'], ip: request.ip }),
  );

  route(
    app,
    postAuthStepUpOptions,
    {
      preHandler: signedIn,
      config: limits.verify,
      schema: { tags, security, summary: "Options for confirming this session with one of the account's passkeys" },
    },
    async (request) => stepUpOptions(deps, authOf(request)),
  );

  route(
    app,
    postAuthStepUpVerify,
    {
      preHandler: signedIn,
      config: limits.verify,
      schema: {
        tags,
        security,
        summary: 'Confirm this session with a passkey or a one-time recovery code',
        description: 'Wrong recovery codes: 5 per 15 minutes per account and per address, then 429.',
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { response, recoveryCode } = request.body;
      if (recoveryCode) return stepUpWithRecoveryCode(deps, auth, recoveryCode, request.ip);
      return stepUpWithPasskey(deps, auth, response!);
    },
  );
};
