import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { passkeys, recoveryCodes } from '../../db/schema/account-security.ts';
import { sessions } from '../../db/schema/platform.ts';
import { confirmSession, hashToken } from '../auth/sessions.ts';
import { freshIp } from '../../../../tests/fixtures/sign-in.ts';
import { addPasskey, api, confirmedAtOf, newAuthenticator, signInWithPasskey, stepUp } from '../../../../tests/fixtures/passkeys.ts';

// Decision 190: the back office's passkeys, the step-up that guards adding and
// removing them, and the ten recovery codes.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_STEP_UP: 'passkey', ADMIN_EMAILS: 'owner@example.com' });
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const backOffice = (role: 'admin' | 'staff' = 'admin') => loginAs(t, `bo${++n}-${Date.now()}@example.com`, role);

/** A back-office account with its first passkey (and its recovery codes); `token` is confirmed. */
async function ownerWithPasskey(role: 'admin' | 'staff' = 'admin') {
  const who = await backOffice(role);
  const authenticator = newAuthenticator();
  const res = await addPasskey(t, who.token, authenticator);
  expect(res.statusCode, res.body).toBe(200);
  return { ...who, authenticator, passkey: res.json().passkey as { id: string }, codes: res.json().recoveryCodes as string[] };
}

/** Pretends the session was confirmed `hours` ago (through confirmSession: the session cache hears of it). */
async function confirmedAgo(token: string, hours: number) {
  const [row] = await t.deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)));
  await confirmSession(t.deps.db, row!.id, new Date(Date.now() - hours * 3600_000));
}

describe("a back-office account's first passkey", () => {
  it('answers ten distinct one-time recovery codes, stores only their hashes, and confirms the session', async () => {
    for (const role of ['admin', 'staff'] as const) {
      const { token, user } = await backOffice(role);
      expect(await confirmedAtOf(t, token)).toBeNull();
      const res = await addPasskey(t, token, newAuthenticator());
      expect(res.statusCode, res.body).toBe(200);
      const codes: string[] = res.json().recoveryCodes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
      expect(await confirmedAtOf(t, token)).toBeInstanceOf(Date);

      const rows = await t.deps.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      expect(rows).toHaveLength(10);
      const stored = JSON.stringify(rows);
      for (const c of codes) {
        expect(stored).not.toContain(c);
        expect(stored).not.toContain(c.replace('-', ''));
      }
      expect((await api(t, 'GET', 'auth/passkeys', token)).json().recoveryCodesLeft).toBe(10);
    }
  });

  it('a second passkey brings no new codes', async () => {
    const { token } = await ownerWithPasskey();
    const res = await addPasskey(t, token, newAuthenticator());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().recoveryCodes).toBeUndefined();
  });
});

describe('adding another passkey needs a confirmed session (a mailbox thief cannot add theirs)', () => {
  it('answers 403 STEP_UP_REQUIRED to a session signed in by e-mail code, at options and at verify', async () => {
    const { user, token: confirmed } = await ownerWithPasskey();
    const thief = await loginAs(t, user.email, 'admin');
    const options = await api(t, 'POST', 'auth/passkeys/registration/options', thief.token);
    expect(options.statusCode).toBe(403);
    expect(options.json().code).toBe('STEP_UP_REQUIRED');

    // Options fetched while confirmed, the window then closes before verify: verify checks again.
    const early = await api(t, 'POST', 'auth/passkeys/registration/options', confirmed);
    expect(early.statusCode).toBe(200);
    await confirmedAgo(confirmed, 13);
    const late = await api(t, 'POST', 'auth/passkeys/registration/verify', confirmed, {
      response: newAuthenticator().register(early.json()),
    });
    expect(late.statusCode).toBe(403);
    expect(late.json().code).toBe('STEP_UP_REQUIRED');
    expect(await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toHaveLength(1);
  });

  it('is allowed after the step-up with a passkey, within ADMIN_STEP_UP_HOURS', async () => {
    const { user, authenticator } = await ownerWithPasskey();
    const later = await loginAs(t, user.email, 'admin');
    const res = await stepUp(t, later.token, authenticator);
    expect(res.statusCode, res.body).toBe(200);
    expect(Math.abs(Date.parse(res.json().confirmedUntil) - (Date.now() + 12 * 3600_000))).toBeLessThan(10_000);
    expect(await confirmedAtOf(t, later.token)).toBeInstanceOf(Date);
    expect((await addPasskey(t, later.token, newAuthenticator())).statusCode).toBe(200);
    await confirmedAgo(later.token, 11.9);
    expect((await addPasskey(t, later.token, newAuthenticator())).statusCode).toBe(200);
    await confirmedAgo(later.token, 12.1);
    expect((await api(t, 'POST', 'auth/passkeys/registration/options', later.token)).statusCode).toBe(403);
  });

  it('a passkey sign-in starts confirmed', async () => {
    const { authenticator } = await ownerWithPasskey();
    const res = await signInWithPasskey(t, authenticator);
    expect(res.statusCode).toBe(200);
    expect((await api(t, 'POST', 'auth/passkeys/registration/options', res.json().token)).statusCode).toBe(200);
  });
});

describe('removing a back-office passkey', () => {
  it('refuses the last one with 409, and another one from an unconfirmed session with 403', async () => {
    const { user, token, passkey } = await ownerWithPasskey();
    const last = await api(t, 'DELETE', `auth/passkeys/${passkey.id}`, token);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toMatch(/only passkey/);

    const second = (await addPasskey(t, token, newAuthenticator())).json().passkey;
    const thief = await loginAs(t, user.email, 'admin');
    const refused = await api(t, 'DELETE', `auth/passkeys/${second.id}`, thief.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('STEP_UP_REQUIRED');
    expect((await api(t, 'DELETE', `auth/passkeys/${second.id}`, token)).statusCode).toBe(200);
    expect(await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toHaveLength(1);
  });
});

describe('recovery codes', () => {
  it('confirm the session once each; a used code never works again', async () => {
    const { user, codes } = await ownerWithPasskey();
    const later = await loginAs(t, user.email, 'admin');
    // As people type them: lower case, no dash, spaces around.
    const typed = ` ${codes[3]!.toLowerCase().replace('-', '')} `;
    const res = await api(t, 'POST', 'auth/step-up/verify', later.token, { recoveryCode: typed });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, recoveryCodesLeft: 9 });
    expect(await confirmedAtOf(t, later.token)).toBeInstanceOf(Date);

    const again = await loginAs(t, user.email, 'admin');
    const reused = await api(t, 'POST', 'auth/step-up/verify', again.token, { recoveryCode: codes[3] });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toMatch(/not valid or was already used/);
    expect(await confirmedAtOf(t, again.token)).toBeNull();
    expect((await api(t, 'GET', 'auth/passkeys', again.token)).json().recoveryCodesLeft).toBe(9);
  });

  it("only the account's own codes count", async () => {
    const a = await ownerWithPasskey();
    const b = await ownerWithPasskey();
    const bLater = await loginAs(t, b.user.email, 'admin');
    const res = await api(t, 'POST', 'auth/step-up/verify', bLater.token, { recoveryCode: a.codes[0] });
    expect(res.statusCode).toBe(400);
    expect(await confirmedAtOf(t, bLater.token)).toBeNull();
  });

  it('guessing is limited: five wrong tries per account in 15 minutes, then 429 even for a right code', async () => {
    const { user, codes } = await ownerWithPasskey();
    const later = await loginAs(t, user.email, 'admin');
    for (let i = 0; i < 5; i++) {
      const res = await api(t, 'POST', 'auth/step-up/verify', later.token, { recoveryCode: `WRONG-GUES${i}` }, freshIp());
      expect(res.statusCode).toBe(400);
    }
    const limited = await api(t, 'POST', 'auth/step-up/verify', later.token, { recoveryCode: codes[0] }, freshIp());
    expect(limited.statusCode).toBe(429);
    expect(await confirmedAtOf(t, later.token)).toBeNull();
    // The code the limit held back is still unused.
    expect((await api(t, 'GET', 'auth/passkeys', later.token)).json().recoveryCodesLeft).toBe(10);
  });

  it('guessing is limited per address too, across accounts', async () => {
    const ip = freshIp();
    const victims = await Promise.all([ownerWithPasskey(), ownerWithPasskey()]);
    let answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const v = victims[i % 2]!;
      answers.push((await api(t, 'POST', 'auth/step-up/verify', v.token, { recoveryCode: `ZZZZZ-ZZZZ${i}` }, ip)).statusCode);
    }
    expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
    // Another address is not held back by this one.
    answers = [
      (await api(t, 'POST', 'auth/step-up/verify', victims[1]!.token, { recoveryCode: victims[1]!.codes[1] }, freshIp())).statusCode,
    ];
    expect(answers).toEqual([200]);
  });

  it('parallel guesses cannot get past the limit', async () => {
    const { token } = await ownerWithPasskey();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api(t, 'POST', 'auth/step-up/verify', token, { recoveryCode: `PARAL-LEL${String(i).padStart(2, '0')}` }, freshIp()),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 400).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(7);
  });
});

describe('with ADMIN_STEP_UP=off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await buildTestApp({ ADMIN_STEP_UP: 'off' });
  });
  afterAll(async () => {
    await off.close();
  });

  it('a back-office account still gets its codes, but adds and removes passkeys without the step-up', async () => {
    const { token, user } = await loginAs(off, `off-owner-${Date.now()}@example.com`, 'admin');
    const first = await addPasskey(off, token, newAuthenticator());
    expect(first.json().recoveryCodes).toHaveLength(10);
    const other = await loginAs(off, user.email, 'admin');
    expect((await addPasskey(off, other.token, newAuthenticator())).statusCode).toBe(200);
    const list = (await api(off, 'GET', 'auth/passkeys', other.token)).json().passkeys as { id: string }[];
    for (const p of list) expect((await api(off, 'DELETE', `auth/passkeys/${p.id}`, other.token)).statusCode).toBe(200);
  });
});
