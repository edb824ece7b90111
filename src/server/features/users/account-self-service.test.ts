import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { emailChangeCodes } from '../../db/schema/account-security.ts';
import { mailOutbox, users } from '../../db/schema/platform.ts';
import { freshIp, lastCodeFor, post } from '../../../../tests/fixtures/sign-in.ts';

// Decision 193 on the real app: correcting one's details and changing one's e-mail, with the
// issue's attacks (HTML, NUL, 10 KB; codes wrong, expired, reused; the old address after a change).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const newEmail = (tag = 'p') => `${tag}${++n}-${Date.now()}@example.com`;
const patch = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url: '/api/v1/user/profile', headers, payload: payload as object });
const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/v1/user/getUserById', headers });
const change = (headers: Record<string, string>, email: string, ip = freshIp()) => post(t, 'user/email-change', { email }, ip, headers);
const confirm = (headers: Record<string, string>, code: string, ip = freshIp()) =>
  post(t, 'user/email-change/confirm', { code }, ip, headers);
/** Lets the next code of this user be sent at once (the 20 s wait has its own test). */
const skipResendWait = (userId: string) =>
  t.deps.db
    .update(emailChangeCodes)
    .set({ createdAt: sql`created_at - interval '1 minute'` })
    .where(eq(emailChangeCodes.userId, userId));
const mailsTo = (email: string) =>
  t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt));

describe('PATCH /user/profile', () => {
  it('corrects name, phone and address, answers the profile, and user/getUserById shows it at once', async () => {
    const a = await loginAs(t, newEmail());
    await me(a.headers); // the session is now cached
    const res = await patch(a.headers, {
      name: 'Asha Rao',
      phone_code: '+44',
      phone_number: '7700900123',
      address: 'Flat 2\n10 High Street, London',
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      name: 'Asha Rao',
      email: a.user.email,
      phone_code: '44',
      phone_number: '7700900123',
      address: 'Flat 2\n10 High Street, London',
      role: 'customer',
    };
    expect(res.json()).toEqual({ success: true, user: expected });
    expect((await me(a.headers)).json().user).toEqual(expected);
    // One field alone changes only that field.
    expect((await patch(a.headers, { name: '  Asha R.  ' })).json().user).toEqual({ ...expected, name: 'Asha R.' });
  });

  it('keeps HTML as the text it is (screens and e-mails escape it)', async () => {
    const a = await loginAs(t, newEmail());
    const name = '<b>Asha</b><img src=x onerror=alert(1)>';
    const address = '<script>alert("x")</script> & Co.';
    const res = await patch(a.headers, { name, address });
    expect(res.statusCode).toBe(200);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, a.user.id));
    expect([row!.name, row!.address]).toEqual([name, address]);
  });

  it('refuses NUL, control characters, line breaks in one-line fields, and 10 KB values with a 400 naming the problem', async () => {
    const a = await loginAs(t, newEmail());
    const tenKb = 'x'.repeat(10 * 1024);
    const cases: [unknown, RegExp][] = [
      [{ name: 'Asha\u0000Rao' }, /NUL/],
      [{ address: 'Road\u0000 1' }, /NUL/],
      [{ name: 'Asha\u001bRao' }, /control character/],
      [{ name: 'Asha\nRao' }, /single line|line break/],
      [{ name: tenKb }, /name/i],
      [{ address: tenKb }, /address/i],
      [{ phone_code: '91', phone_number: tenKb }, /5 to 11 digits/],
      [{ phone_code: tenKb, phone_number: '9876543210' }, /country code/i],
      [{ name: '   ' }, /Please enter your name/],
    ];
    for (const [body, message] of cases) {
      const res = await patch(a.headers, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, a.user.id));
    expect(row!.name).toBe(a.user.name);
  });

  it('refuses unknown fields (no e-mail or role through this door), a phone code without its number, and an empty change', async () => {
    const a = await loginAs(t, newEmail());
    for (const body of [{ role: 'admin' }, { email: 'x@example.com' }, { name: 'A', deletedAt: null }]) {
      expect((await patch(a.headers, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const alone = await patch(a.headers, { phone_number: '9876543210' });
    expect(alone.statusCode).toBe(400);
    expect(alone.json().message).toBe('Please send the country code and the phone number together.');
    expect((await patch(a.headers, { phone_code: '91' })).statusCode).toBe(400);
    expect((await patch(a.headers, {})).statusCode).toBe(400);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, a.user.id));
    expect(row!.role).toBe('customer');
  });

  it('answers 401 without a session and for a deleted account', async () => {
    expect((await patch({}, { name: 'X' })).statusCode).toBe(401);
    const a = await loginAs(t, newEmail());
    await t.deps.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, a.user.id));
    const res = await patch(a.headers, { name: 'Back again' });
    expect(res.statusCode).toBe(401);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, a.user.id));
    expect(row!.name).not.toBe('Back again');
  });
});

describe('changing the e-mail', () => {
  it('mails a code to the new address only; the code changes users.email, the old address is told, and only the new one signs in', async () => {
    const a = await loginAs(t, newEmail('old'));
    const target = newEmail('NEW').toUpperCase();
    const res = await change(a.headers, target);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true });
    const lower = target.toLowerCase();
    const code = await lastCodeFor(t, lower);
    expect(await mailsTo(a.user.email)).toEqual([]);
    const [row] = await t.deps.db.select().from(emailChangeCodes).where(eq(emailChangeCodes.userId, a.user.id));
    expect(row!.codeHash).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(`"${code}"`);

    const wrong = await confirm(a.headers, code === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(400);
    const ok = await confirm(a.headers, code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user.email).toBe(lower);
    expect((await me(a.headers)).json().user.email).toBe(lower);
    const [notice] = await mailsTo(a.user.email);
    expect(notice!.template).toBe('email-changed');
    expect(notice!.textBody).toContain(`${lower[0]}***@example.com`);
    expect(notice!.textBody).not.toContain(lower);

    // The code works once.
    const again = await confirm(a.headers, code);
    expect(again.statusCode).toBe(400);

    // The old address is a stranger now: its code leads to sign-up, the new one to this account.
    expect((await post(t, 'auth/sendLoginOtp', { email: a.user.email, location: 'x' }, freshIp())).statusCode).toBe(200);
    const old = await post(t, 'auth/verifyOtp', { email: a.user.email, otp: await lastCodeFor(t, a.user.email) }, freshIp());
    expect(old.json()).toMatchObject({ isNewUser: true });
    expect(old.json().token).toBeUndefined();
    expect((await post(t, 'auth/sendLoginOtp', { email: lower, location: 'x' }, freshIp())).statusCode).toBe(200);
    const fresh = await post(t, 'auth/verifyOtp', { email: lower, otp: await lastCodeFor(t, lower) }, freshIp());
    expect(fresh.json()).toMatchObject({ isNewUser: false, userId: a.user.id });
  });

  it('answers the same for an address that has an account: that mailbox gets a notice and no code, and no code confirms', async () => {
    const a = await loginAs(t, newEmail());
    const taken = await loginAs(t, newEmail('taken'));
    const free = newEmail('free');
    const r1 = await change(a.headers, taken.user.email);
    await skipResendWait(a.user.id);
    const r2 = await change(a.headers, free);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    expect(r1.json()).toEqual(r2.json());
    const [notice] = await mailsTo(taken.user.email);
    expect(notice!.template).toBe('email-change-taken');
    expect(notice!.textBody).not.toMatch(/\b\d{6}\b/);
    // Back to the taken address: the confirmation says what a wrong code says.
    await skipResendWait(a.user.id);
    await change(a.headers, taken.user.email);
    const res = await confirm(a.headers, '123456');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Invalid code/);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, a.user.id));
    expect(row!.email).toBe(a.user.email);
  });

  it('409 when the new address got an account between the code and its confirmation', async () => {
    const a = await loginAs(t, newEmail());
    const target = newEmail('race');
    await change(a.headers, target);
    const code = await lastCodeFor(t, target);
    await loginAs(t, target);
    const res = await confirm(a.headers, code);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/belongs to another account/);
  });

  it('refuses the current address, a wrong code five times, an expired code and a replaced code', async () => {
    const a = await loginAs(t, newEmail());
    const same = await change(a.headers, a.user.email.toUpperCase());
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('This is already your e-mail address.');

    const target = newEmail('tries');
    await change(a.headers, target);
    const code = await lastCodeFor(t, target);
    const bad = code === '999999' ? '999998' : '999999';
    for (let i = 0; i < 5; i++) expect((await confirm(a.headers, bad)).statusCode).toBe(400);
    const locked = await confirm(a.headers, code);
    expect(locked.statusCode).toBe(400);
    expect(locked.json().message).toMatch(/expired or was tried too many times/);

    await skipResendWait(a.user.id);
    await change(a.headers, target);
    const second = await lastCodeFor(t, target);
    await t.deps.db
      .update(emailChangeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChangeCodes.userId, a.user.id));
    const expired = await confirm(a.headers, second);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toMatch(/expired/);

    await skipResendWait(a.user.id);
    await change(a.headers, target);
    const replaced = await lastCodeFor(t, target);
    await skipResendWait(a.user.id);
    await change(a.headers, target);
    const latest = await lastCodeFor(t, target);
    if (replaced !== latest) expect((await confirm(a.headers, replaced)).statusCode).toBe(400);
    expect((await confirm(a.headers, latest)).statusCode).toBe(200);
    expect((await me(a.headers)).json().user.email).toBe(target);
  });

  it('limits the codes: 20 s between two, per account and per network per hour', async () => {
    const a = await loginAs(t, newEmail());
    const ip = freshIp();
    expect((await change(a.headers, newEmail('l'), ip)).statusCode).toBe(200);
    const soon = await change(a.headers, newEmail('l'), ip);
    expect(soon.statusCode).toBe(429);
    expect(soon.json().message).toMatch(/Please wait \d+ seconds?/);
    for (let i = 0; i < 4; i++) {
      await skipResendWait(a.user.id);
      expect((await change(a.headers, newEmail('l'), freshIp())).statusCode).toBe(200);
    }
    await skipResendWait(a.user.id);
    const hourly = await change(a.headers, newEmail('l'), freshIp());
    expect(hourly.statusCode).toBe(429);
    expect(hourly.json().message).toMatch(/for your account/);

    // One network, many accounts: the per-network cap (OTP_MAX_PER_IP_HOUR, 30) holds.
    const shared = freshIp();
    await t.deps.db.insert(emailChangeCodes).values(
      Array.from({ length: 30 }, () => ({
        userId: a.user.id,
        newEmail: 'x@example.com',
        codeHash: 'x',
        salt: 'x',
        ip: shared,
        expiresAt: new Date(),
        createdAt: new Date(Date.now() - 120_000),
      })),
    );
    const b = await loginAs(t, newEmail());
    const net = await change(b.headers, newEmail('l'), shared);
    expect(net.statusCode).toBe(429);
    expect(net.json().message).toMatch(/from your network/);
  });

  it('is not for back-office accounts (their address is set by the owner), nor for visitors', async () => {
    const boss = await loginAs(t, newEmail('boss'), 'admin');
    const res = await change(boss.headers, newEmail());
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/back-office/);
    expect((await change({}, newEmail())).statusCode).toBe(401);
    expect((await confirm({}, '123456')).statusCode).toBe(401);
  });
});
