import { createHash, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

// A real OpenID provider (oidc-provider) standing in for Google and Microsoft in tests. Its dev
// login page accepts any login; the login is taken as the e-mail address of the account.

export interface FakeOidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Claims of the account behind a login: stable subject, verified e-mail, names from the local part. */
export function accountClaims(login: string) {
  const email = login.trim().toLowerCase();
  const [first = 'Test', last = 'User'] = email.split('@')[0]!.split(/[._-]/);
  return {
    sub: `sub-${createHash('sha256').update(email).digest('hex').slice(0, 24)}`,
    email,
    email_verified: !email.startsWith('unverified'),
    name: `${title(first)} ${title(last)}`,
    given_name: title(first),
    family_name: title(last),
    preferred_username: email,
  };
}

export async function startFakeOidc(opts: { port?: number; clients: FakeOidcClient[] }) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(privateKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'fake-oidc-key', use: 'sig', alg: 'RS256' };

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: opts.clients.map((c) => ({ ...c, token_endpoint_auth_method: 'client_secret_post' as const })),
    jwks: { keys: [jwk] },
    // By default only `sub` is in the ID token.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username'],
    },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ ...accountClaims(id), sub: id }) };
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['fake-oidc-cookie-key'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    provider,
    /** Signs a token with the provider's own key (to build expired or other-audience tokens). */
    signWithProviderKey: (claims: Record<string, unknown>) => signJwt(claims, privateKey, jwk.kid),
    /** Signs a token with a key the provider never published (a forgery). */
    signWithForeignKey: (claims: Record<string, unknown>) =>
      signJwt(claims, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, jwk.kid),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function signJwt(claims: Record<string, unknown>, key: Parameters<typeof sign>[2], kid: string) {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${enc({ alg: 'RS256', typ: 'JWT', kid })}.${enc(claims)}`;
  return `${data}.${sign('sha256', Buffer.from(data), key).toString('base64url')}`;
}

export type FakeOidc = Awaited<ReturnType<typeof startFakeOidc>>;

/**
 * Walks the provider's dev login and consent pages the way a browser would (cookies, redirects,
 * form posts) and returns the final redirect to our callback.
 */
export async function signInAtFakeOidc(startLocation: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  let url = startLocation;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (!url.startsWith(new URL(startLocation).origin)) return url; // left the provider: our callback
    const res = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    remember(res);
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`fake OIDC: unexpected page ${res.status}: ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: prompt ?? 'consent' });
  }
  throw new Error('fake OIDC: too many redirects');
}
