import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, lt } from 'drizzle-orm';
import { errorResponses } from '../../../../contract/common.ts';
import { oidcCallbackQuery, oidcProviderParams, oidcStartQuery, type SocialProvider } from '../../../../contract/auth.ts';
import type { AppDeps } from '../../../deps.ts';
import { oidcStates } from '../../../db/schema/accounts.ts';
import { AppError, notFound } from '../../../lib/app-error.ts';
import { authorizationUrl, exchangeCode, newAuthorizationChecks, oidcSettings } from '../../../integrations/oidc/oidc-client.ts';
import { authRateLimits } from '../rate-limits.ts';
import { randomToken, sameHash, sha256 } from '../secrets.ts';
import { createHandoff } from './handoffs.ts';
import { resolveSocialAccount } from './social-accounts.ts';

// The server-side authorization-code flow: start → provider →
// callback → handoff in the URL fragment. The browser never tells the server who it is.
const STATE_TTL_MS = 10 * 60_000;
const COOKIE = 'oidc_browser';
const COOKIE_PATH = '/api/v1/auth/oidc';
const tags = ['auth'];

const readCookie = (request: FastifyRequest, name: string) =>
  (request.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([k]) => k === name)?.[1];

export const oidcRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limits = authRateLimits(deps.config);
  const secure = deps.config.publicUrl.startsWith('https://') ? '; Secure' : '';
  const setCookie = (reply: FastifyReply, value: string, maxAge: number) =>
    reply.header('set-cookie', `${COOKIE}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`);
  const callbackUrl = (provider: SocialProvider) => `${deps.config.publicUrl}/api/v1/auth/oidc/${provider}/callback`;
  const configured = (provider: SocialProvider) => {
    const settings = oidcSettings(deps.config, provider);
    if (!settings) throw notFound(`${provider === 'google' ? 'Google' : 'Microsoft'} sign-in is not configured.`);
    return settings;
  };

  app.get(
    '/auth/oidc/:provider/start',
    {
      config: limits.verify,
      schema: {
        tags,
        summary: 'Start Google/Microsoft sign-in (302 to the provider)',
        params: oidcProviderParams,
        querystring: oidcStartQuery,
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      const { provider } = request.params;
      const settings = configured(provider);
      const checks = await newAuthorizationChecks();
      const browser = randomToken();
      await deps.db.delete(oidcStates).where(lt(oidcStates.expiresAt, new Date()));
      await deps.db.insert(oidcStates).values({
        stateHash: sha256(checks.state),
        browserHash: sha256(browser),
        provider,
        codeVerifier: checks.codeVerifier,
        nonce: checks.nonce,
        returnTo: request.query.returnTo,
        isPricing: request.query.isPricing,
        expiresAt: new Date(Date.now() + STATE_TTL_MS),
      });
      let url: URL;
      try {
        url = await authorizationUrl(settings, callbackUrl(provider), checks);
      } catch (err) {
        request.log.warn({ err, provider }, 'OpenID discovery failed');
        return reply.redirect(
          `${request.query.returnTo}#error=${encodeURIComponent('Sign-in is unavailable right now. Please try again later.')}`,
        );
      }
      setCookie(reply, browser, STATE_TTL_MS / 1000);
      return reply.redirect(url.href);
    },
  );

  app.get(
    '/auth/oidc/:provider/callback',
    {
      config: limits.verify,
      schema: {
        tags,
        summary: 'Provider callback (302 to the page with a one-time handoff, or an error)',
        params: oidcProviderParams,
        querystring: oidcCallbackQuery,
      },
    },
    async (request, reply) => {
      const { provider } = request.params;
      const fail = (returnTo: string, message: string) => {
        setCookie(reply, '', 0);
        return reply.redirect(`${returnTo}#error=${encodeURIComponent(message)}`);
      };
      const settings = oidcSettings(deps.config, provider);
      const state = request.query.state;
      if (!settings || !state) return fail('/login', 'Sign-in failed. Please try again.');
      // One use: the state row is deleted as it is read.
      const [row] = await deps.db
        .delete(oidcStates)
        .where(and(eq(oidcStates.stateHash, sha256(state)), eq(oidcStates.provider, provider)))
        .returning();
      if (!row || row.expiresAt.getTime() < Date.now()) {
        return fail('/login', 'Your sign-in attempt expired or was not started here. Please try again.');
      }
      const browser = readCookie(request, COOKIE);
      if (!browser || !sameHash(sha256(browser), row.browserHash)) {
        return fail(row.returnTo, 'Your sign-in attempt was not started in this browser. Please try again.');
      }
      if (request.query.error) return fail(row.returnTo, 'Sign-in was cancelled.');
      try {
        const current = new URL(request.url, deps.config.publicUrl);
        const claims = await exchangeCode(settings, current, { state, nonce: row.nonce, codeVerifier: row.codeVerifier });
        const resolution = await resolveSocialAccount(deps, provider, claims);
        const handoff = await createHandoff(deps, provider, claims.sub, resolution);
        setCookie(reply, '', 0);
        return reply.redirect(`${row.returnTo}#handoff=${handoff}${row.isPricing ? '&isPricing=1' : ''}`);
      } catch (err) {
        if (err instanceof AppError) return fail(row.returnTo, err.message);
        request.log.warn({ err, provider }, 'OpenID callback refused');
        return fail(row.returnTo, 'We could not confirm your sign-in. Please try again.');
      }
    },
  );
};
