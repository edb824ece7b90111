import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { sessions, users } from '../../db/schema/platform.ts';
import { authOf, requireAdmin } from '../../plugins/auth.ts';
import { createSignupTicket } from '../auth/signup-tickets.ts';
import { freshIp, lastCodeFor, post, sessionCount } from '../../../../tests/fixtures/sign-in.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: 'Founder@Example.com' });
  // A stand-in admin-only route, guarded exactly like the back office and chat console routes.
  t.app.get('/api/v1/test/admin-only', { preHandler: requireAdmin(t.deps) }, async (request) => ({ id: authOf(request).user.id }));
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const newEmail = () => `new${++n}-${Date.now()}@example.com`;
const details = { name: 'Asha Rao', address: '12 MG Road, Bangalore', phone_code: '91', phone_number: '9876543210', location: 'x' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers });

async function ticketFor(email: string) {
  expect((await post(t, 'auth/sendSignupOtp', { email, location: 'x' }, freshIp())).statusCode).toBe(200);
  const res = await post(t, 'auth/verifyOtp', { email, otp: await lastCodeFor(t, email) }, freshIp());
  return res.json().signupTicket as string;
}

describe('sign-up and profile', () => {
  it('creates the account with a matching ticket and returns a session', async () => {
    const email = newEmail();
    const signupTicket = await ticketFor(email);
    const res = await post(t, 'user/addUser', { ...details, email, signupTicket, phone_code: '+91' }, freshIp());
    expect(res.statusCode).toBe(200);
    const { token, userId } = res.json();
    const me = await get('user/getUserById', bearer(token));
    expect(me.json()).toEqual({
      success: true,
      user: { name: 'Asha Rao', email, phone_code: '91', phone_number: '9876543210', address: '12 MG Road, Bangalore', role: 'customer' },
    });
    expect((await get('auth/verifyToken', bearer(token))).json()).toEqual({ success: true, userId });
  });

  it('gives the admin role to an ADMIN_EMAILS address at sign-up', async () => {
    const email = 'founder@example.com';
    // A listed address is signed in at once by its code; a ticket issued before
    // the address was listed still makes an admin.
    const signupTicket = await createSignupTicket(t.deps, { email });
    const res = await post(t, 'user/addUser', { ...details, email, signupTicket }, freshIp());
    const me = await get('user/getUserById', bearer(res.json().token));
    expect(me.json().user.role).toBe('admin');
    expect((await get('test/admin-only', bearer(res.json().token))).statusCode).toBe(200);
  });

  it('validates the details form by spec §5 (400, with the phone message)', async () => {
    const email = newEmail();
    const signupTicket = await ticketFor(email);
    const bad = [
      { phone_number: '1234' },
      { phone_number: '123456789012' },
      { phone_number: '12345abc' },
      { name: '' },
      { name: 'x'.repeat(101) },
      { address: '   ' },
      { phone_code: 'abc' },
    ];
    for (const patch of bad) {
      const res = await post(t, 'user/addUser', { ...details, email, signupTicket, ...patch }, freshIp());
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
    }
    const phone = await post(t, 'user/addUser', { ...details, email, signupTicket, phone_number: '12' }, freshIp());
    expect(phone.json().message).toContain('Please enter a valid phone number with 5 to 11 digits.');
    // the ticket survived the refusals
    expect((await post(t, 'user/addUser', { ...details, email, signupTicket }, freshIp())).statusCode).toBe(200);
  });
});

describe('attacks on sign-up and sessions (none creates a session)', () => {
  it('refuses addUser without a ticket', async () => {
    const before = await sessionCount(t);
    const res = await post(t, 'user/addUser', { ...details, email: newEmail() }, freshIp());
    expect(res.statusCode).toBe(400);
    expect(await sessionCount(t)).toBe(before);
  });

  it('refuses addUser with a forged ticket', async () => {
    const before = await sessionCount(t);
    const res = await post(t, 'user/addUser', { ...details, email: newEmail(), signupTicket: 'x'.repeat(43) }, freshIp());
    expect(res.statusCode).toBe(400);
    expect(await sessionCount(t)).toBe(before);
  });

  it("refuses addUser with someone else's ticket, and leaves that ticket usable by its owner", async () => {
    const mine = newEmail();
    const victim = newEmail();
    const myTicket = await ticketFor(mine);
    const before = await sessionCount(t);
    const res = await post(t, 'user/addUser', { ...details, email: victim, signupTicket: myTicket }, freshIp());
    expect(res.statusCode).toBe(400);
    expect(await sessionCount(t)).toBe(before);
    expect(await t.deps.db.select().from(users).where(eq(users.email, victim))).toHaveLength(0);
    expect((await post(t, 'user/addUser', { ...details, email: mine, signupTicket: myTicket }, freshIp())).statusCode).toBe(200);
  });

  it('refuses a ticket twice', async () => {
    const email = newEmail();
    const signupTicket = await ticketFor(email);
    expect((await post(t, 'user/addUser', { ...details, email, signupTicket }, freshIp())).statusCode).toBe(200);
    const before = await sessionCount(t);
    expect((await post(t, 'user/addUser', { ...details, email, signupTicket }, freshIp())).statusCode).toBe(400);
    expect(await sessionCount(t)).toBe(before);
  });

  it('refuses a random or malformed bearer token', async () => {
    for (const headers of [bearer('random-token'), bearer('x'.repeat(500)), { authorization: 'Basic abc' }, {}]) {
      const res = await get('auth/verifyToken', headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      expect((await get('user/getUserById', headers)).statusCode).toBe(401);
    }
  });

  it('logout revokes the session: the token stops working', async () => {
    const { token } = await loginAs(t, newEmail());
    const other = await loginAs(t, 'bystander@example.com');
    expect((await post(t, 'auth/logout', {}, freshIp(), bearer(token))).statusCode).toBe(200);
    expect((await get('auth/verifyToken', bearer(token))).statusCode).toBe(401);
    expect((await post(t, 'auth/logout', {}, freshIp(), bearer(token))).statusCode).toBe(401);
    expect((await get('auth/verifyToken', other.headers)).statusCode).toBe(200);
  });

  it('sign out everywhere revokes every session of that user only', async () => {
    const email = newEmail();
    const a = await loginAs(t, email);
    const b = await loginAs(t, email);
    const other = await loginAs(t, 'bystander@example.com');
    expect((await post(t, 'auth/logoutAll', {}, freshIp(), a.headers)).statusCode).toBe(200);
    expect((await get('auth/verifyToken', a.headers)).statusCode).toBe(401);
    expect((await get('auth/verifyToken', b.headers)).statusCode).toBe(401);
    expect((await get('auth/verifyToken', other.headers)).statusCode).toBe(200);
  });

  it('refuses a session past its absolute expiry, even if recently used', async () => {
    const { token, user } = await loginAs(t, newEmail());
    await t.deps.db
      .update(sessions)
      .set({ absoluteExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await get('auth/verifyToken', bearer(token))).statusCode).toBe(401);
  });

  it('slides the expiry of a session in use', async () => {
    const { token, user } = await loginAs(t, newEmail());
    const soon = new Date(Date.now() + 60_000);
    await t.deps.db
      .update(sessions)
      .set({ expiresAt: soon, lastSeenAt: new Date(Date.now() - 3600_000) })
      .where(eq(sessions.userId, user.id));
    expect((await get('auth/verifyToken', bearer(token))).statusCode).toBe(200);
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 24 * 3600_000);
  });

  it('refuses an expired session', async () => {
    const { token, user } = await loginAs(t, newEmail());
    await t.deps.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await get('auth/verifyToken', bearer(token))).statusCode).toBe(401);
  });

  it('answers 403 to a customer on an admin-only route, 401 to a visitor', async () => {
    const { headers } = await loginAs(t, newEmail());
    const res = await get('test/admin-only', headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await get('test/admin-only')).statusCode).toBe(401);
  });

  it('has no social sign-in when Google/Microsoft are not configured', async () => {
    const start = await get('auth/oidc/google/start?returnTo=/login');
    expect(start.statusCode).toBe(404);
    const back = await get('auth/oidc/microsoft/callback?code=abc&state=def');
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toMatch(/^\/login#error=/);
    const bad = await get('auth/oidc/facebook/start');
    expect(bad.statusCode).toBe(400);
    const evil = await get('auth/oidc/google/start?returnTo=https://evil.example');
    expect(evil.statusCode).toBe(400);
    const idToken = await post(t, 'auth/authLogin', { provider: 'google', id_token: 'a.b.c-long-enough-token' }, freshIp());
    expect(idToken.statusCode).toBe(400);
  });

  it('lists every accounts route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> };
    for (const path of [
      '/api/v1/auth/sendLoginOtp',
      '/api/v1/auth/sendSignupOtp',
      '/api/v1/user/getOtpCreatedAt',
      '/api/v1/auth/verifyOtp',
      '/api/v1/user/addUser',
      '/api/v1/auth/verifyToken',
      '/api/v1/user/getUserById',
      '/api/v1/auth/authLogin',
      '/api/v1/auth/logout',
      '/api/v1/auth/logoutAll',
      '/api/v1/auth/oidc/{provider}/start',
      '/api/v1/auth/oidc/{provider}/callback',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it('stores only the hash of session tokens', async () => {
    const { token, user } = await loginAs(t, newEmail());
    const rows = await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
