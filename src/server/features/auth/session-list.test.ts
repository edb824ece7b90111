import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { sessions } from '../../db/schema/platform.ts';
import type { Revocation } from './revocations.ts';
import { hashToken } from './sessions.ts';
import { lastCodeFor, post } from '../../../../tests/fixtures/sign-in.ts';

// "My sessions" (decision 193) — device, city, last seen; signing one out; and the city looked
// up at sign-in without ever slowing it past the lookup's timeout.

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
let geo: Server;
const geoCalls: string[] = [];
const revoked: Revocation[] = [];

beforeAll(async () => {
  // The ip-api.com stand-in: one address in Pune, one that never answers in time, the rest unknown.
  geo = createServer((req, res) => {
    const ip = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1));
    geoCalls.push(ip);
    const answer = (body: object) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (ip === '203.0.113.7') return answer({ status: 'success', city: 'Pune', country: 'India' });
    if (ip === '203.0.113.8') return void setTimeout(() => answer({ status: 'success', city: 'Too Late' }), 3_000);
    answer({ status: 'fail' });
  });
  await new Promise<void>((resolve) => geo.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(geo.address() as AddressInfo).port}`;
  t = await buildTestApp({ GEOIP_URL: url, GEO_TIMEOUT_MS: '300', OTP_RESEND_SECONDS: '0' });
  t.deps.revocations.on((r) => revoked.push(r));
});
afterAll(async () => {
  await t.close();
  geo.closeAllConnections();
  await new Promise((resolve) => geo.close(resolve));
});

let n = 0;
const newEmail = () => `sess${++n}-${Date.now()}@example.com`;
const list = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/v1/auth/sessions', headers });
const signOut = (headers: Record<string, string>, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${id}`, headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Signs in by e-mail code from `ip` with `userAgent`, as a browser would. */
async function signInFrom(email: string, ip: string, userAgent: string) {
  expect((await post(t, 'auth/sendLoginOtp', { email, location: 'x' }, ip)).statusCode).toBe(200);
  const started = Date.now();
  const res = await post(t, 'auth/verifyOtp', { email, otp: await lastCodeFor(t, email) }, ip, { 'user-agent': userAgent });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().token as string, ms: Date.now() - started };
}

describe('GET /auth/sessions', () => {
  it('lists live sessions newest first with device, city and times, marks the current one, and never shows a token or its hash', async () => {
    const email = newEmail();
    const a = await loginAs(t, email);
    const phone = await signInFrom(email, '203.0.113.7', SAFARI_IPHONE);
    const laptop = await signInFrom(email, '192.168.1.20', CHROME_WINDOWS);
    // An ended session and an expired one are not places one can act on: not listed.
    const gone = await signInFrom(email, '10.0.0.9', CHROME_WINDOWS);
    await post(t, 'auth/logout', {}, '127.0.0.1', bearer(gone.token));
    const old = await signInFrom(email, '10.0.0.10', CHROME_WINDOWS);
    await t.deps.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(old.token)));

    const res = await list(bearer(phone.token));
    expect(res.statusCode, res.body).toBe(200);
    const listed = res.json().sessions as {
      id: string;
      device: string;
      city: string | null;
      createdAt: string;
      lastSeenAt: string;
      current: boolean;
    }[];
    expect(listed.map((s) => [s.device, s.city, s.current])).toEqual([
      ['Chrome on Windows', null, false],
      ['Safari on iPhone', 'Pune', true],
      ['Unknown device', null, false],
    ]);
    expect(Object.keys(listed[0]!).sort()).toEqual(['city', 'createdAt', 'current', 'device', 'id', 'lastSeenAt']);
    const hashes = (await t.deps.db.select({ h: sessions.tokenHash }).from(sessions).where(eq(sessions.userId, a.user.id))).map((r) => r.h);
    for (const secret of [...hashes, phone.token, laptop.token, a.token]) expect(res.body).not.toContain(secret);
    // Private addresses are never sent to the provider.
    expect(geoCalls.some((ip) => ip.startsWith('192.168.') || ip.startsWith('10.'))).toBe(false);
    expect((await list({})).statusCode).toBe(401);
  });

  it('a slow geo lookup costs at most its timeout and leaves the city empty; the sign-in never fails on it', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const slow = await signInFrom(email, '203.0.113.8', CHROME_WINDOWS);
    expect(slow.ms).toBeLessThan(2_500);
    const listed = (await list(bearer(slow.token))).json().sessions as { city: string | null; current: boolean }[];
    expect(listed.find((s) => s.current)!.city).toBeNull();
  });
});

describe('DELETE /auth/sessions/{id}', () => {
  it('signs one own session out: its token stops working at once and its sockets are told; the others stay', async () => {
    const email = newEmail();
    const a = await loginAs(t, email);
    const other = await signInFrom(email, '203.0.113.7', SAFARI_IPHONE);
    await list(bearer(other.token)); // cached on this instance
    const listed = (await list(a.headers)).json().sessions as { id: string; current: boolean }[];
    const target = listed.find((s) => !s.current)!;
    const res = await signOut(a.headers, target.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(revoked).toContainEqual({ sessionId: target.id });
    expect((await list(bearer(other.token))).statusCode).toBe(401);
    expect((await list(a.headers)).statusCode).toBe(200);
    // Twice: it is gone.
    expect((await signOut(a.headers, target.id)).statusCode).toBe(404);
  });

  it("another user's session, an unknown id and a malformed id: 404, 404, 400 — and the other session lives on", async () => {
    const a = await loginAs(t, newEmail());
    const b = await loginAs(t, newEmail());
    const bSession = ((await list(b.headers)).json().sessions as { id: string }[])[0]!.id;
    const res = await signOut(a.headers, bSession);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/Session not found/);
    expect(revoked).not.toContainEqual({ sessionId: bSession });
    expect((await list(b.headers)).statusCode).toBe(200);
    expect((await signOut(a.headers, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await signOut(a.headers, 'not-a-uuid')).statusCode).toBe(400);
    expect((await signOut({}, bSession)).statusCode).toBe(401);
  });

  it('signing out the current session works like logout', async () => {
    const a = await loginAs(t, newEmail());
    const me = ((await list(a.headers)).json().sessions as { id: string; current: boolean }[]).find((s) => s.current)!;
    expect((await signOut(a.headers, me.id)).statusCode).toBe(200);
    expect((await list(a.headers)).statusCode).toBe(401);
  });
});
