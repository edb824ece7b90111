import * as oidc from 'openid-client';
import type { Config } from '../../config.ts';
import type { SocialProvider } from '../../../contract/auth.ts';

// The OpenID Connect adapter: discovery, the authorization URL with PKCE/state/nonce,
// and the code exchange — all by openid-client, which checks issuer, audience, expiry and nonce
// (and, on Microsoft's multi-tenant endpoint, the issuer against the token's `tid`).

export interface OidcSettings {
  provider: SocialProvider;
  issuer: URL;
  clientId: string;
  clientSecret?: string;
}

export function oidcSettings(config: Config, provider: SocialProvider): OidcSettings | null {
  if (provider === 'google') {
    if (!config.GOOGLE_CLIENT_ID) return null;
    return {
      provider,
      issuer: new URL(config.GOOGLE_ISSUER),
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
    };
  }
  if (!config.MICROSOFT_CLIENT_ID) return null;
  const issuer = config.MICROSOFT_ISSUER ?? `https://login.microsoftonline.com/${encodeURIComponent(config.MICROSOFT_TENANT)}/v2.0`;
  return { provider, issuer: new URL(issuer), clientId: config.MICROSOFT_CLIENT_ID, clientSecret: config.MICROSOFT_CLIENT_SECRET };
}

/** Plain http is allowed only for a provider on this machine (the tests' local provider). */
export const isLocalHttp = (url: URL) => url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

const configurations = new Map<string, Promise<oidc.Configuration>>();

export function oidcConfiguration(settings: OidcSettings): Promise<oidc.Configuration> {
  const key = `${settings.issuer.href}|${settings.clientId}`;
  let pending = configurations.get(key);
  if (!pending) {
    pending = oidc.discovery(
      settings.issuer,
      settings.clientId,
      settings.clientSecret,
      undefined,
      isLocalHttp(settings.issuer) ? { execute: [oidc.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
    );
    // A failed discovery (provider down) is retried on the next sign-in, not cached forever.
    pending.catch(() => configurations.delete(key));
    configurations.set(key, pending);
  }
  return pending;
}

export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function newAuthorizationChecks(): Promise<AuthorizationChecks & { codeChallenge: string }> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  return {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier,
    codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
  };
}

export async function authorizationUrl(
  settings: OidcSettings,
  redirectUri: string,
  checks: { state: string; nonce: string; codeChallenge: string },
) {
  const config = await oidcConfiguration(settings);
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: checks.codeChallenge,
    code_challenge_method: 'S256',
  });
}

export type IdClaims = Record<string, unknown> & { sub: string };

/** Exchanges the code; returns the verified ID-token claims, completed from userinfo when offered. */
export async function exchangeCode(settings: OidcSettings, callbackUrl: URL, checks: AuthorizationChecks): Promise<IdClaims> {
  const config = await oidcConfiguration(settings);
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('no ID token');
  let userinfo: Record<string, unknown> = {};
  if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
    // Names are often only in userinfo (Microsoft); identity (sub, iss) always comes from the ID token.
    userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => ({}));
  }
  return { ...userinfo, ...stripUndefined(claims), sub: claims.sub };
}

function stripUndefined(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
