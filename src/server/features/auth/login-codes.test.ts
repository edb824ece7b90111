import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { loginCodes } from '../../db/schema/accounts.ts';
import { freshIp, lastCodeFor, post, sessionCount } from '../../../../tests/fixtures/sign-in.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: 'boss@example.com' });
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const newEmail = () => `person${++n}-${Date.now()}@example.com`;

async function requestCode(email: string, kind: 'Login' | 'Signup' = 'Login', ip = freshIp()) {
  const res = await post(t, `auth/send${kind}Otp`, { email, location: 'somewhere' }, ip);
  expect(res.statusCode).toBe(200);
  return lastCodeFor(t, email);
}

const verify = (email: string, otp: string, ip = freshIp()) => post(t, 'auth/verifyOtp', { email, otp }, ip);

describe('sign-in by code', () => {
  it('answers the same whether or not the account exists', async () => {
    const known = newEmail();
    await loginAs(t, known);
    const a = await post(t, 'auth/sendLoginOtp', { email: known, location: 'x' }, freshIp());
    const b = await post(t, 'auth/sendLoginOtp', { email: newEmail(), location: 'x' }, freshIp());
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
  });

  it('mails six crypto-random digits in a template naming the brand and the expiry, stored only as a hash', async () => {
    const email = newEmail();
    const code = await requestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await t.deps.db.select().from(loginCodes).where(eq(loginCodes.email, email));
    expect(row!.codeHash).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(`"${code}"`);
    const mail = await t.deps.database.query<{ subject: string; html_body: string; text_body: string }>(
      'select subject, html_body, text_body from mail_outbox where to_address = $1',
      [email],
    );
    expect(mail[0]!.subject).toContain('Webcraft Studio');
    expect(mail[0]!.text_body).toContain('10 minutes');
    expect(mail[0]!.html_body).toContain(code);
  });

  it('signs a known user in with a token and reports createdAt for the countdown', async () => {
    const email = newEmail();
    const { user } = await loginAs(t, email);
    const code = await requestCode(email);
    const at = await post(t, 'user/getOtpCreatedAt', { email }, freshIp());
    expect(at.statusCode).toBe(200);
    expect(Date.now() - Date.parse(at.json().createdAt)).toBeLessThan(10_000);
    expect(at.json().resendAfterSeconds).toBe(20);
    const res = await verify(email, code);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, userId: user.id, isNewUser: false });
    const who = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/verifyToken',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(who.json()).toEqual({ success: true, userId: user.id });
  });

  it('gives a new e-mail no token but a signup ticket', async () => {
    const email = newEmail();
    const res = await verify(email, await requestCode(email, 'Signup'));
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toBeUndefined();
    expect(res.json().signupTicket).toEqual(expect.any(String));
    expect(res.json().isNewUser).toBe(true);
  });

  it('treats e-mail case-insensitively', async () => {
    const email = newEmail();
    const code = await requestCode(email.toUpperCase());
    expect((await verify(` ${email.toUpperCase()} `, code)).statusCode).toBe(200);
  });

  it('bootstraps the admin role from ADMIN_EMAILS at sign-in', async () => {
    await loginAs(t, 'boss@example.com', 'customer');
    const res = await verify('boss@example.com', await requestCode('boss@example.com'));
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/getUserById',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.json().user.role).toBe('admin');
  });
});

describe("the founder's first sign-in", () => {
  it('signs an unknown ADMIN_EMAILS address straight in as an admin: a token, no signup ticket, no details form', async () => {
    const email = 'Boss.First@Example.com';
    const t2 = await buildTestApp({ ADMIN_EMAILS: `someone@example.com, ${email}` });
    try {
      const send = await post(t2, 'auth/sendLoginOtp', { email, location: 'x' }, freshIp());
      expect(send.statusCode).toBe(200);
      const res = await post(t2, 'auth/verifyOtp', { email, otp: await lastCodeFor(t2, email.toLowerCase()) }, freshIp());
      expect(res.statusCode).toBe(200);
      // verifyOtp's contract is kept: a known account's answer, so every client goes straight in.
      expect(res.json()).toEqual({ success: true, token: expect.any(String), userId: expect.any(String), isNewUser: false });
      const headers = { authorization: `Bearer ${res.json().token}` };
      const me = await t2.app.inject({ method: 'GET', url: '/api/v1/user/getUserById', headers });
      expect(me.json().user).toMatchObject({ email: email.toLowerCase(), role: 'admin', name: null, phone_number: null });
      expect((await t2.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers })).statusCode).toBe(200);
      // The second sign-in finds the same account.
      await t2.deps.db
        .update(loginCodes)
        .set({ createdAt: sql`created_at - interval '1 hour'` })
        .where(eq(loginCodes.email, email.toLowerCase()));
      expect((await post(t2, 'auth/sendLoginOtp', { email, location: 'x' }, freshIp())).statusCode).toBe(200);
      const again = await post(t2, 'auth/verifyOtp', { email, otp: await lastCodeFor(t2, email.toLowerCase()) }, freshIp());
      expect(again.json()).toMatchObject({ userId: res.json().userId, isNewUser: false });
    } finally {
      await t2.close();
    }
  });

  it('still gives an unlisted new address a signup ticket', async () => {
    const email = newEmail();
    const res = await verify(email, await requestCode(email));
    expect(res.json()).toMatchObject({ isNewUser: true, signupTicket: expect.any(String) });
    expect(res.json().token).toBeUndefined();
  });
});

describe('bad input and attacks on codes (none creates a session)', () => {
  it('refuses a wrong code', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const code = await requestCode(email);
    const before = await sessionCount(t);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await verify(email, wrong);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: 'Invalid OTP. Please try again.' });
    expect(await sessionCount(t)).toBe(before);
  });

  it('refuses an expired code', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const code = await requestCode(email);
    await t.deps.db
      .update(loginCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(loginCodes.email, email));
    const before = await sessionCount(t);
    const res = await verify(email, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/expired/);
    expect(await sessionCount(t)).toBe(before);
  });

  it('says a code replaced by a newer one was replaced, and still refuses it', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const first = await requestCode(email);
    // The resend wait is over: the first code is retired by the second.
    await t.deps.db
      .update(loginCodes)
      .set({ createdAt: sql`created_at - interval '1 hour'` })
      .where(eq(loginCodes.email, email));
    const second = await requestCode(email);
    if (first === second) return; // one chance in a million: nothing to tell apart
    // The database's clock and the server's may differ: the row itself says it was superseded.
    await t.deps.db
      .update(loginCodes)
      .set({ createdAt: sql`created_at + interval '1 minute'` })
      .where(eq(loginCodes.email, email));
    const before = await sessionCount(t);
    const res = await verify(email, first);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This code was replaced by a newer one. Please enter the code from the latest e-mail.');
    expect(await sessionCount(t)).toBe(before);
    expect((await verify(email, second)).statusCode).toBe(200);
  });

  it('calls a code that was used to sign in, then typed again after a new one, invalid — not replaced', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const used = await requestCode(email);
    expect((await verify(email, used)).statusCode).toBe(200);
    await t.deps.db
      .update(loginCodes)
      .set({ createdAt: sql`created_at - interval '1 hour'` })
      .where(eq(loginCodes.email, email));
    const next = await requestCode(email);
    if (used === next) return;
    const res = await verify(email, used);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid OTP. Please try again.');
  });

  it('refuses a reused code', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const code = await requestCode(email);
    expect((await verify(email, code)).statusCode).toBe(200);
    const before = await sessionCount(t);
    expect((await verify(email, code)).statusCode).toBe(400);
    expect(await sessionCount(t)).toBe(before);
  });

  it('refuses a code sent to another e-mail', async () => {
    const mine = newEmail();
    const victim = newEmail();
    await loginAs(t, victim);
    const code = await requestCode(mine);
    await requestCode(victim);
    const before = await sessionCount(t);
    const res = await verify(victim, code);
    // The victim's own code might equal ours by chance (1 in a million); the hash binds the e-mail anyway.
    if (code !== (await lastCodeFor(t, victim))) expect(res.statusCode).toBe(400);
    expect(await sessionCount(t)).toBe(before + (res.statusCode === 200 ? 1 : 0));
  });

  it('never opens an existing account with a code of the signup purpose', async () => {
    const email = newEmail();
    const code = await requestCode(email, 'Signup');
    await loginAs(t, email); // the account appears after the sign-up code was sent
    const before = await sessionCount(t);
    const res = await verify(email, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().token).toBeUndefined();
    expect(await sessionCount(t)).toBe(before);
  });

  it('sends a sign-in (not sign-up) code when someone signs up with an existing e-mail', async () => {
    const email = newEmail();
    const { user } = await loginAs(t, email);
    const code = await requestCode(email, 'Signup');
    const [row] = await t.deps.db.select().from(loginCodes).where(eq(loginCodes.email, email));
    expect(row!.purpose).toBe('login');
    expect((await verify(email, code)).json().userId).toBe(user.id);
  });

  it('kills a code after 5 wrong tries: the 6th try fails even with the right code', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const code = await requestCode(email);
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await verify(email, wrong)).statusCode).toBe(400);
    const before = await sessionCount(t);
    const res = await verify(email, code);
    expect(res.statusCode).toBe(400);
    expect(await sessionCount(t)).toBe(before);
  });

  it('counts parallel guesses: no more than 5 tries however fast they come', async () => {
    const email = newEmail();
    await loginAs(t, email);
    const code = await requestCode(email);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + i + 1) % 1_000_000).padStart(6, '0'));
    await Promise.all(guesses.map((g) => verify(email, g)));
    const [row] = await t.deps.db.select().from(loginCodes).where(eq(loginCodes.email, email));
    expect(row!.attempts).toBe(5);
    expect((await verify(email, code)).statusCode).toBe(400);
  });

  it('refuses a new code within 20 s of the last one', async () => {
    const email = newEmail();
    await requestCode(email);
    const res = await post(t, 'auth/sendLoginOtp', { email, location: 'x' }, freshIp());
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(res.json().message).toMatch(/wait \d+ seconds/);
  });

  it('caps the codes per e-mail per hour', async () => {
    const email = newEmail();
    for (let i = 0; i < 5; i++) {
      await requestCode(email);
      await t.deps.db
        .update(loginCodes)
        .set({ createdAt: sql`created_at - interval '30 seconds'` })
        .where(eq(loginCodes.email, email));
    }
    const res = await post(t, 'auth/sendLoginOtp', { email, location: 'x' }, freshIp());
    expect(res.statusCode).toBe(429);
  });

  it('stops 50 sends from one IP', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await post(t, 'auth/sendLoginOtp', { email: newEmail() }, ip)).statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(30);
    expect(statuses.slice(-10).every((s) => s === 429)).toBe(true);
    const [row] = await t.deps.database.query<{ n: number }>('select count(*)::int as n from login_codes where ip = $1', [ip]);
    const mailed = row?.n ?? 0;
    expect(mailed).toBeLessThanOrEqual(30);
  });

  it('rejects malformed input with 400, never 500', async () => {
    const bodies = [
      {},
      { email: 'not-an-email' },
      { email: 'a@b.co', otp: '12345' },
      { email: 'a@b.co', otp: 'abcdef' },
      { email: 'a@b.co', otp: '1234567' },
      { email: `${'a'.repeat(5000)}@example.com`, otp: '123456' },
      { email: ['a@b.co'], otp: 123456 },
    ];
    for (const body of bodies) {
      const res = await post(t, 'auth/verifyOtp', body, freshIp());
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await post(t, 'auth/sendLoginOtp', { email: '<script>@x' }, freshIp())).statusCode).toBe(400);
    expect((await post(t, 'user/getOtpCreatedAt', { email: 42 }, freshIp())).statusCode).toBe(400);
  });
});
