import { constants, createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { isLocalHttp, oidcConfiguration, type IdClaims, type OidcSettings } from './oidc-client.ts';

// auth/authLogin also accepts an ID token the browser got from the provider itself (e.g. Google's
// own button). It is checked like openid-client checks ours: signature against the issuer's JWKS,
// issuer (Microsoft multi-tenant: against the token's tenant), audience, expiry.
const SKEW_S = 60;
const JWKS_TTL_MS = 10 * 60_000;

export class IdTokenError extends Error {}

interface Jwk extends JsonWebKey {
  kid?: string;
  use?: string;
}

const jwksCache = new Map<string, { at: number; keys: Jwk[] }>();

async function fetchJwks(uri: string, fresh: boolean): Promise<Jwk[]> {
  const cached = jwksCache.get(uri);
  if (cached && !fresh && Date.now() - cached.at < JWKS_TTL_MS) return cached.keys;
  const res = await fetch(uri, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new IdTokenError('the provider keys could not be loaded');
  const body = (await res.json()) as { keys?: Jwk[] };
  const keys = Array.isArray(body.keys) ? body.keys : [];
  jwksCache.set(uri, { at: Date.now(), keys });
  return keys;
}

const decodePart = (part: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new IdTokenError('malformed token');
};

function checkSignature(alg: string, key: KeyObject, data: Buffer, signature: Buffer): boolean {
  switch (alg) {
    case 'RS256':
      return verify('sha256', data, key, signature);
    case 'PS256':
      return verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
    case 'ES256':
      return verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
    default:
      throw new IdTokenError(`unsupported algorithm ${alg}`);
  }
}

/**
 * Microsoft's multi-tenant metadata names its issuer `https://login.microsoftonline.com/{tenantid}/v2.0`:
 * the token's own `tid` fills it in, so a token of tenant A never passes as tenant B's.
 */
export function expectedIssuer(metadataIssuer: string, claims: Record<string, unknown>): string {
  if (!metadataIssuer.includes('{tenantid}')) return metadataIssuer;
  const tid = typeof claims.tid === 'string' && /^[\w-]{1,64}$/.test(claims.tid) ? claims.tid : 'invalid-tenant';
  return metadataIssuer.replace('{tenantid}', tid);
}

export async function verifyIdToken(settings: OidcSettings, token: string): Promise<IdClaims> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new IdTokenError('malformed token');
  const [h, p, s] = parts as [string, string, string];
  const header = decodePart(h);
  const claims = decodePart(p);
  const config = await oidcConfiguration(settings);
  const meta = config.serverMetadata();
  if (!meta.jwks_uri) throw new IdTokenError('the provider publishes no keys');
  const jwksUrl = new URL(meta.jwks_uri);
  if (jwksUrl.protocol !== 'https:' && !isLocalHttp(jwksUrl)) throw new IdTokenError('insecure key endpoint');

  const alg = String(header.alg ?? '');
  const pick = (keys: Jwk[]) => keys.find((k) => (header.kid ? k.kid === header.kid : true) && (k.use ?? 'sig') === 'sig');
  const jwk = pick(await fetchJwks(jwksUrl.href, false)) ?? pick(await fetchJwks(jwksUrl.href, true));
  if (!jwk) throw new IdTokenError('unknown signing key');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new IdTokenError('unusable signing key');
  }
  if (!checkSignature(alg, key, Buffer.from(`${h}.${p}`), Buffer.from(s, 'base64url'))) {
    throw new IdTokenError('bad signature');
  }

  if (claims.iss !== expectedIssuer(meta.issuer, claims)) throw new IdTokenError('wrong issuer');
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(settings.clientId)) throw new IdTokenError('wrong audience');
  if (aud.length > 1 && claims.azp !== settings.clientId) throw new IdTokenError('wrong authorized party');
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp + SKEW_S < now) throw new IdTokenError('expired');
  if (typeof claims.iat !== 'number' || claims.iat - SKEW_S > now) throw new IdTokenError('issued in the future');
  if (typeof claims.nbf === 'number' && claims.nbf - SKEW_S > now) throw new IdTokenError('not yet valid');
  if (typeof claims.sub !== 'string' || !claims.sub) throw new IdTokenError('no subject');
  return claims as IdClaims;
}
