import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../../tests/helpers/test-app.ts';
import { accountClaims, signInAtFakeOidc, startFakeOidc, type FakeOidc } from '../../../../../tests/fakes/oidc.ts';
import { freshIp, post, sessionCount } from '../../../../../tests/fixtures/sign-in.ts';

const APP = 'http://localhost:3000';
let t: TestApp;
let fake: FakeOidc;

beforeAll(async () => {
  fake = await startFakeOidc({
    clients: [
      { client_id: 'google-client', client_secret: 'google-secret', redirect_uris: [`${APP}/api/v1/auth/oidc/google/callback`] },
      { client_id: 'microsoft-client', client_secret: 'microsoft-secret', redirect_uris: [`${APP}/api/v1/auth/oidc/microsoft/callback`] },
    ],
  });
  t = await buildTestApp({
    PUBLIC_URL: APP,
    ADMIN_EMAILS: 'founder@example.com,cofounder.first@example.com',
    GOOGLE_CLIENT_ID: 'google-client',
    GOOGLE_CLIENT_SECRET: 'google-secret',
    GOOGLE_ISSUER: fake.issuer,
    MICROSOFT_CLIENT_ID: 'microsoft-client',
    MICROSOFT_CLIENT_SECRET: 'microsoft-secret',
    MICROSOFT_ISSUER: fake.issuer,
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

let n = 0;
const newEmail = () => `social${++n}-${Date.now()}@example.com`;
const details = { name: 'Ravi Kumar', address: '1 Park Street', phone_code: '91', phone_number: '9876543210' };

async function start(provider: 'google' | 'microsoft', query = 'returnTo=/login') {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/auth/oidc/${provider}/start?${query}`, remoteAddress: freshIp() });
  expect(res.statusCode).toBe(302);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  return { location: res.headers.location as string, cookie };
}

async function callback(url: string, cookie?: string) {
  const u = new URL(url);
  const res = await t.app.inject({
    method: 'GET',
    url: u.pathname + u.search,
    headers: cookie ? { cookie } : {},
    remoteAddress: freshIp(),
  });
  expect(res.statusCode).toBe(302);
  return res.headers.location as string;
}

/** The whole round trip a browser makes; returns where our callback sends the browser. */
async function roundTrip(provider: 'google' | 'microsoft', email: string, query?: string) {
  const { location, cookie } = await start(provider, query);
  expect(location.startsWith(fake.issuer)).toBe(true);
  const back = await signInAtFakeOidc(location, email);
  expect(back.startsWith(`${APP}/api/v1/auth/oidc/${provider}/callback?`)).toBe(true);
  return callback(back, cookie);
}

const handoffOf = (location: string) => new URLSearchParams(location.split('#')[1]).get('handoff');

describe('Google and Microsoft sign-in (server-side code flow against a local OpenID provider)', () => {
  it('sends the browser to the provider with PKCE, state and nonce', async () => {
    const { location } = await start('google');
    const url = new URL(location);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toBeTruthy();
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(`${APP}/api/v1/auth/oidc/google/callback`);
  });

  it('a first-time user gets a signup ticket with name and e-mail, then addUser links the identity', async () => {
    const email = newEmail();
    const location = await roundTrip('google', email);
    expect(location).toMatch(/^\/login#handoff=/);
    const first = await post(t, 'auth/authLogin', { handoff: handoffOf(location) }, freshIp());
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, provider: 'google', email, name: accountClaims(email).name });
    expect(first.json().token).toBeUndefined();
    expect(first.json().invitedStaff).toBeUndefined();
    const created = await post(t, 'user/addUser', { ...details, email, signupTicket: first.json().signupTicket }, freshIp());
    expect(created.statusCode).toBe(200);
    // next time the account is found by (provider, subject)
    const again = await post(t, 'auth/authLogin', { handoff: handoffOf(await roundTrip('google', email)) }, freshIp());
    expect(again.json()).toMatchObject({ success: true, userId: created.json().userId, token: expect.any(String) });
  });

  it('tells the details form that an invited staff member gives only a name (decision 276)', async () => {
    const email = newEmail();
    await t.deps.database.query('insert into staff_members (email) values ($1)', [email]);
    const first = await post(t, 'auth/authLogin', { handoff: handoffOf(await roundTrip('google', email)) }, freshIp());
    expect(first.json()).toMatchObject({ success: true, invitedStaff: true, signupTicket: expect.any(String) });
    const created = await post(t, 'user/addUser', { name: 'Social Staff', email, signupTicket: first.json().signupTicket }, freshIp());
    expect(created.statusCode, created.body).toBe(200);
  });

  it('links to the existing account of the same verified e-mail', async () => {
    const email = newEmail();
    const { user } = await loginAs(t, email);
    const res = await post(t, 'auth/authLogin', { handoff: handoffOf(await roundTrip('microsoft', email)) }, freshIp());
    expect(res.json()).toMatchObject({ userId: user.id, provider: 'microsoft' });
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/profile/microsoft',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    const c = accountClaims(email);
    expect(profile.json()).toMatchObject({
      givenName: c.given_name,
      surname: c.family_name,
      userPrincipalName: email,
      mail: email,
      id: email,
    });
  });

  it('makes ADMIN_EMAILS users admins at social sign-in', async () => {
    await loginAs(t, 'founder@example.com', 'customer');
    const res = await post(t, 'auth/authLogin', { handoff: handoffOf(await roundTrip('google', 'founder@example.com')) }, freshIp());
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/getUserById',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.json().user.role).toBe('admin');
  });

  it('signs an unknown ADMIN_EMAILS address straight in as an admin, without the details form', async () => {
    const email = 'cofounder.first@example.com';
    const res = await post(t, 'auth/authLogin', { handoff: handoffOf(await roundTrip('google', email)) }, freshIp());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ provider: 'google', token: expect.any(String), userId: expect.any(String), email });
    expect(res.json().signupTicket).toBeUndefined();
    const headers = { authorization: `Bearer ${res.json().token}` };
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/user/getUserById', headers });
    expect(me.json().user).toMatchObject({ email, role: 'admin' });
    // The identity is linked: the next Google sign-in finds the same account.
    const again = await post(t, 'auth/authLogin', { handoff: handoffOf(await roundTrip('google', email)) }, freshIp());
    expect(again.json().userId).toBe(res.json().userId);
  });

  it('carries isPricing and the return page through the round trip', async () => {
    const location = await roundTrip('google', newEmail(), 'returnTo=/microsoftLogin&isPricing=1');
    expect(location).toMatch(/^\/microsoftLogin#handoff=[\w-]+&isPricing=1$/);
  });

  it('refuses a provider e-mail the provider did not verify', async () => {
    const location = await roundTrip('google', `unverified-${newEmail()}`);
    expect(location).toMatch(/^\/login#error=/);
    expect(decodeURIComponent(location)).toContain('verified e-mail');
  });
});

describe('attacks on social sign-in (none creates a session)', () => {
  it('refuses authLogin with just an e-mail', async () => {
    const before = await sessionCount(t);
    for (const body of [{ email: 'founder@example.com', name: 'F', location: 'x' }, { provider: 'google', email: 'a@b.co' }, {}]) {
      const res = await post(t, 'auth/authLogin', body, freshIp());
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect(await sessionCount(t)).toBe(before);
  });

  it('refuses a tampered OAuth state', async () => {
    const { location, cookie } = await start('google');
    const back = new URL(await signInAtFakeOidc(location, newEmail()));
    back.searchParams.set('state', `${back.searchParams.get('state')}x`);
    const before = await sessionCount(t);
    const to = await callback(back.href, cookie);
    expect(to).toMatch(/^\/login#error=/);
    expect(handoffOf(to)).toBeNull();
    expect(await sessionCount(t)).toBe(before);
  });

  it('refuses a callback in a browser that did not start the flow (login CSRF)', async () => {
    const { location } = await start('google');
    const back = await signInAtFakeOidc(location, newEmail());
    const to = await callback(back, 'oidc_browser=someone-elses-cookie');
    expect(to).toMatch(/#error=/);
    expect(handoffOf(to)).toBeNull();
  });

  it('refuses a replayed callback and a reused handoff', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const { location, cookie } = await start('google');
    const back = await signInAtFakeOidc(location, email);
    const first = await callback(back, cookie);
    expect(handoffOf(first)).toBeTruthy();
    expect(await callback(back, cookie)).toMatch(/#error=/);
    expect((await post(t, 'auth/authLogin', { handoff: handoffOf(first) }, freshIp())).statusCode).toBe(200);
    const before = await sessionCount(t);
    expect((await post(t, 'auth/authLogin', { handoff: handoffOf(first) }, freshIp())).statusCode).toBe(400);
    expect((await post(t, 'auth/authLogin', { handoff: 'x'.repeat(43) }, freshIp())).statusCode).toBe(400);
    expect(await sessionCount(t)).toBe(before);
  });

  describe('ID tokens given to authLogin', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const claimsFor = (email: string, patch: Record<string, unknown> = {}) => ({
      iss: fake.issuer,
      aud: 'google-client',
      sub: email,
      email,
      email_verified: true,
      name: 'Id Token',
      iat: now(),
      exp: now() + 300,
      ...patch,
    });

    it('accepts a valid token signed by the provider', async () => {
      const email = newEmail();
      const { user } = await loginAs(t, email);
      const res = await post(t, 'auth/authLogin', { provider: 'google', id_token: fake.signWithProviderKey(claimsFor(email)) }, freshIp());
      expect(res.statusCode).toBe(200);
      expect(res.json().userId).toBe(user.id);
    });

    const attacks: [string, (email: string) => string][] = [
      ['a forged token (unknown key)', (e) => fake.signWithForeignKey(claimsFor(e))],
      ['an expired token', (e) => fake.signWithProviderKey(claimsFor(e, { iat: now() - 7200, exp: now() - 3600 }))],
      ['a token for another audience', (e) => fake.signWithProviderKey(claimsFor(e, { aud: 'someone-elses-app' }))],
      ['a token from another issuer', (e) => fake.signWithProviderKey(claimsFor(e, { iss: 'https://evil.example' }))],
      [
        'a token with its payload swapped',
        (e) => {
          const [h, , s] = fake.signWithProviderKey(claimsFor('someone@example.com')).split('.');
          return `${h}.${Buffer.from(JSON.stringify(claimsFor(e))).toString('base64url')}.${s}`;
        },
      ],
      [
        'an unsigned token',
        (e) => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claimsFor(e))).toString('base64url')}.`,
      ],
      ['garbage', () => 'not.a.token-at-all'],
    ];
    for (const [what, make] of attacks) {
      it(`refuses ${what}`, async () => {
        const email = newEmail();
        await loginAs(t, email);
        const before = await sessionCount(t);
        const res = await post(t, 'auth/authLogin', { provider: 'google', id_token: make(email) }, freshIp());
        expect([400, 401]).toContain(res.statusCode);
        expect(res.json().token).toBeUndefined();
        expect(await sessionCount(t)).toBe(before);
      });
    }
  });
});
