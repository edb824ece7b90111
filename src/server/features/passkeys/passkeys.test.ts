import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { passkeys, webauthnChallenges } from '../../db/schema/account-security.ts';
import { sessions, users } from '../../db/schema/platform.ts';
import {
  addPasskey,
  api,
  confirmedAtOf,
  loginOptions,
  newAuthenticator,
  registrationOptions,
  signInWithPasskey,
  stepUp,
  stepUpOptions,
} from '../../../../tests/fixtures/passkeys.ts';

// Passkeys for everyone, through the real WebAuthn ceremonies (a software
// authenticator signs with P-256 keys), and every attack the issue lists for them.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_STEP_UP: 'passkey' });
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const customer = () => loginAs(t, `pk-customer${++n}-${Date.now()}@example.com`);
const sessionCount = async (userId: string) => (await t.deps.db.select().from(sessions).where(eq(sessions.userId, userId))).length;

async function customerWithPasskey() {
  const who = await customer();
  const authenticator = newAuthenticator();
  const res = await addPasskey(t, who.token, authenticator, 'My laptop');
  expect(res.statusCode, res.body).toBe(200);
  return { ...who, authenticator, passkey: res.json().passkey as { id: string } };
}

describe('adding a passkey', () => {
  it('offers a discoverable credential for the host of PUBLIC_URL, no attestation, and stores the verified public key', async () => {
    const { token, user } = await customer();
    const options = await registrationOptions(t, token);
    expect(options.rp).toEqual({ id: 'localhost', name: expect.any(String) });
    expect(options.user.name).toBe(user.email);
    expect(options.attestation).toBe('none');
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'preferred', userVerification: 'preferred' });
    expect(options.excludeCredentials).toEqual([]);

    const authenticator = newAuthenticator();
    const res = await api(t, 'POST', 'auth/passkeys/registration/verify', token, {
      response: authenticator.register(options),
      name: 'Phone',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, passkey: { name: 'Phone', lastUsedAt: null, backedUp: false } });
    // A customer gets no recovery codes, and adding a passkey does not confirm the session.
    expect(res.json().recoveryCodes).toBeUndefined();
    expect(await confirmedAtOf(t, token)).toBeNull();

    const [row] = await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row!.credentialId).toBe(authenticator.credentials[0]!.id);
    expect(row!.transports).toEqual(['internal']);

    const list = await api(t, 'GET', 'auth/passkeys', token);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ passkeys: [expect.objectContaining({ id: row!.id, name: 'Phone' })], recoveryCodesLeft: 0 });
  });

  it('excludes the passkeys the account already has, names an unnamed one, and lists them in order', async () => {
    const { token, authenticator, passkey } = await customerWithPasskey();
    const options = await registrationOptions(t, token);
    expect(options.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.credentials[0]!.id })]);
    // The same authenticator refuses (as a browser does); a second one is added.
    expect(() => authenticator.register(options)).toThrow(/InvalidStateError/);
    const second = newAuthenticator();
    const res = await api(t, 'POST', 'auth/passkeys/registration/verify', token, { response: second.register(options) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().passkey.name).toBe('Passkey 2');
    const list = (await api(t, 'GET', 'auth/passkeys', token)).json();
    expect(list.passkeys.map((p: { id: string }) => p.id)).toEqual([passkey.id, res.json().passkey.id]);
  });

  it('refuses registration options used twice (the challenge is single use)', async () => {
    const { token, user } = await customer();
    const options = await registrationOptions(t, token);
    const first = await api(t, 'POST', 'auth/passkeys/registration/verify', token, { response: newAuthenticator().register(options) });
    expect(first.statusCode).toBe(200);
    const again = await api(t, 'POST', 'auth/passkeys/registration/verify', token, { response: newAuthenticator().register(options) });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/expired or was already used/);
    expect(await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toHaveLength(1);
  });

  it('refuses options issued to another account or another session, and options past five minutes', async () => {
    const a = await customer();
    const b = await customer();
    const forA = await registrationOptions(t, a.token);
    const stolen = await api(t, 'POST', 'auth/passkeys/registration/verify', b.token, { response: newAuthenticator().register(forA) });
    expect(stolen.statusCode).toBe(400);
    // Another session of the same account.
    const other = await loginAs(t, a.user.email);
    const otherSession = await api(t, 'POST', 'auth/passkeys/registration/verify', other.token, {
      response: newAuthenticator().register(forA),
    });
    expect(otherSession.statusCode).toBe(400);

    const late = await registrationOptions(t, a.token);
    await t.deps.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, late.challenge));
    const res = await api(t, 'POST', 'auth/passkeys/registration/verify', a.token, { response: newAuthenticator().register(late) });
    expect(res.statusCode).toBe(400);
    expect(await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, a.user.id))).toHaveLength(0);
  });

  it('refuses a registration made on another origin or for another RP id', async () => {
    const { token, user } = await customer();
    const wrongOrigin = await addPasskey(t, token, newAuthenticator(), undefined, { origin: 'https://evil.example' });
    expect(wrongOrigin.statusCode).toBe(400);
    const wrongRp = await addPasskey(t, token, newAuthenticator(), undefined, { rpId: 'evil.example' });
    expect(wrongRp.statusCode).toBe(400);
    expect(await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toHaveLength(0);
  });

  it('refuses a credential that is already registered (to another account): 409', async () => {
    const first = await customerWithPasskey();
    const credentialId = first.authenticator.credentials[0]!.id;
    const other = await customer();
    const res = await addPasskey(t, other.token, first.authenticator, undefined, { credentialId });
    expect(res.statusCode, res.body).toBe(409);
    const owners = await t.deps.db.select({ userId: passkeys.userId }).from(passkeys).where(eq(passkeys.credentialId, credentialId));
    expect(owners).toEqual([{ userId: first.user.id }]);
  });
});

describe('signing in with a passkey', () => {
  it('is discoverable (no allowCredentials) and answers the same token as verifyOtp, confirmed', async () => {
    const { user, authenticator, passkey } = await customerWithPasskey();
    const options = await loginOptions(t);
    expect(options.rpId).toBe('localhost');
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await api(t, 'POST', 'auth/passkeys/login/verify', undefined, { response: authenticator.assert(options) }, '10.9.8.7');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, token: expect.any(String), userId: user.id });
    const { token } = res.json();
    const check = await api(t, 'GET', 'auth/verifyToken', token);
    expect(check.statusCode).toBe(200);
    expect(check.json().userId).toBe(user.id);
    expect(await confirmedAtOf(t, token)).toBeInstanceOf(Date);

    const [row] = await t.deps.db.select().from(passkeys).where(eq(passkeys.id, passkey.id));
    expect(row!.counter).toBe(1);
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
    const list = (await api(t, 'GET', 'auth/passkeys', token)).json();
    expect(list.passkeys[0].lastUsedAt).not.toBeNull();
  });

  it('refuses a replayed assertion, also from a passkey that keeps no counter (synced passkeys report 0)', async () => {
    const { user, authenticator } = await customerWithPasskey();
    // Counter 0 every time: only the single-use challenge stops the replay.
    const response = authenticator.assert(await loginOptions(t), { counter: 0 });
    const first = await api(t, 'POST', 'auth/passkeys/login/verify', undefined, { response });
    expect(first.statusCode).toBe(200);
    const before = await sessionCount(user.id);
    const replay = await api(t, 'POST', 'auth/passkeys/login/verify', undefined, { response });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().token).toBeUndefined();
    expect(await sessionCount(user.id)).toBe(before);
  });

  it('refuses an assertion from another origin or for another RP id', async () => {
    const { user, authenticator } = await customerWithPasskey();
    const before = await sessionCount(user.id);
    expect((await signInWithPasskey(t, authenticator, { origin: 'https://evil.example' })).statusCode).toBe(400);
    expect((await signInWithPasskey(t, authenticator, { origin: 'http://localhost:4000' })).statusCode).toBe(400);
    expect((await signInWithPasskey(t, authenticator, { rpId: 'evil.example' })).statusCode).toBe(400);
    expect(await sessionCount(user.id)).toBe(before);
  });

  it('refuses a signature counter that went backwards (a cloned authenticator) and stores the new one', async () => {
    const { authenticator, passkey } = await customerWithPasskey();
    expect((await signInWithPasskey(t, authenticator, { counter: 5 })).statusCode).toBe(200);
    const [after] = await t.deps.db.select().from(passkeys).where(eq(passkeys.id, passkey.id));
    expect(after!.counter).toBe(5);
    expect((await signInWithPasskey(t, authenticator, { counter: 3 })).statusCode).toBe(400);
    expect((await signInWithPasskey(t, authenticator, { counter: 5 })).statusCode).toBe(400);
    expect((await signInWithPasskey(t, authenticator, { counter: 6 })).statusCode).toBe(200);
  });

  it('refuses a signature made with another key than the stored one', async () => {
    const victim = await customerWithPasskey();
    const attacker = newAuthenticator();
    await addPasskey(t, (await customer()).token, attacker);
    // The attacker's own key, sent under the victim's credential id and user handle.
    const response = attacker.assert(await loginOptions(t));
    response.id = response.rawId = victim.authenticator.credentials[0]!.id;
    response.response.userHandle = victim.authenticator.credentials[0]!.userHandle;
    const res = await api(t, 'POST', 'auth/passkeys/login/verify', undefined, { response });
    expect(res.statusCode).toBe(400);
  });

  it('refuses an unknown passkey and a deleted account', async () => {
    const stranger = newAuthenticator();
    stranger.register(await registrationOptions(t, (await customer()).token));
    const unknown = await signInWithPasskey(t, stranger);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/not registered/);

    const { user, authenticator } = await customerWithPasskey();
    await t.deps.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, user.id));
    const before = await sessionCount(user.id);
    const res = await signInWithPasskey(t, authenticator);
    expect(res.statusCode).toBe(400);
    expect(await sessionCount(user.id)).toBe(before);
  });

  it('refuses registration options or step-up options as sign-in options', async () => {
    const { token, authenticator } = await customerWithPasskey();
    const stepUpChallenge = await stepUpOptions(t, token);
    const res = await api(t, 'POST', 'auth/passkeys/login/verify', undefined, { response: authenticator.assert(stepUpChallenge) });
    expect(res.statusCode).toBe(400);
  });
});

describe('the step-up for any signed-in account', () => {
  it("confirms a customer's current session (account deletion reads it)", async () => {
    const { token, authenticator } = await customerWithPasskey();
    expect(await confirmedAtOf(t, token)).toBeNull();
    const res = await stepUp(t, token, authenticator);
    expect(res.statusCode, res.body).toBe(200);
    const confirmedAt = await confirmedAtOf(t, token);
    expect(Date.now() - confirmedAt!.getTime()).toBeLessThan(10_000);
    expect(Date.parse(res.json().confirmedUntil) - confirmedAt!.getTime()).toBe(12 * 3600_000);
  });

  it("names only the account's own passkeys and refuses another user's credential", async () => {
    const victim = await customerWithPasskey();
    const attacker = await customerWithPasskey();
    const options = await stepUpOptions(t, attacker.token);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([attacker.authenticator.credentials[0]!.id]);
    // A valid assertion by the victim's passkey (say, a stolen security key) for the attacker's session.
    const response = victim.authenticator.assert(options, { credentialId: victim.authenticator.credentials[0]!.id });
    const res = await api(t, 'POST', 'auth/step-up/verify', attacker.token, { response });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/does not belong to your account/);
    expect(await confirmedAtOf(t, attacker.token)).toBeNull();
  });

  it('refuses a replayed step-up, one answered in another session, and a wrong origin', async () => {
    const { user, token, authenticator } = await customerWithPasskey();
    const options = await stepUpOptions(t, token);
    const response = authenticator.assert(options, { counter: 0 });
    expect((await api(t, 'POST', 'auth/step-up/verify', token, { response })).statusCode).toBe(200);
    expect((await api(t, 'POST', 'auth/step-up/verify', token, { response })).statusCode).toBe(400);

    const other = await loginAs(t, user.email);
    const forFirst = authenticator.assert(await stepUpOptions(t, token));
    expect((await api(t, 'POST', 'auth/step-up/verify', other.token, { response: forFirst })).statusCode).toBe(400);
    expect(await confirmedAtOf(t, other.token)).toBeNull();

    expect((await stepUp(t, other.token, authenticator, { origin: 'https://evil.example' })).statusCode).toBe(400);
    expect((await stepUp(t, other.token, authenticator, { rpId: 'evil.example' })).statusCode).toBe(400);
    expect(await confirmedAtOf(t, other.token)).toBeNull();
  });

  it('answers 409 for an account without a passkey, 401 without a session', async () => {
    const { token } = await customer();
    expect((await api(t, 'POST', 'auth/step-up/options', token)).statusCode).toBe(409);
    expect((await api(t, 'POST', 'auth/step-up/options')).statusCode).toBe(401);
    expect((await api(t, 'GET', 'auth/passkeys')).statusCode).toBe(401);
    expect((await api(t, 'POST', 'auth/passkeys/registration/options')).statusCode).toBe(401);
  });
});

describe('removing a passkey', () => {
  it("removes the customer's own, and answers 404 for someone else's (which stays)", async () => {
    const owner = await customerWithPasskey();
    const intruder = await customer();
    const res = await api(t, 'DELETE', `auth/passkeys/${owner.passkey.id}`, intruder.token);
    expect(res.statusCode).toBe(404);
    expect(await t.deps.db.select().from(passkeys).where(eq(passkeys.id, owner.passkey.id))).toHaveLength(1);

    const mine = await api(t, 'DELETE', `auth/passkeys/${owner.passkey.id}`, owner.token);
    expect(mine.statusCode).toBe(200);
    expect((await api(t, 'GET', 'auth/passkeys', owner.token)).json().passkeys).toEqual([]);
    // Gone means gone: it no longer signs in.
    expect((await signInWithPasskey(t, owner.authenticator)).statusCode).toBe(400);
    expect((await api(t, 'DELETE', `auth/passkeys/${owner.passkey.id}`, owner.token)).statusCode).toBe(404);
  });
});

describe('bad input', () => {
  const good = () => newAuthenticator();

  it('answers 400, never 500, to malformed WebAuthn JSON', async () => {
    const { token, authenticator } = await customerWithPasskey();
    const registration = good().register(await registrationOptions(t, token));
    const assertion = authenticator.assert(await loginOptions(t));
    const garbage = Buffer.from('not json').toString('base64url');
    const noChallenge = Buffer.from(JSON.stringify({ type: 'webauthn.get', origin: 'http://localhost:3000' })).toString('base64url');
    const bodies: [string, unknown][] = [
      ['auth/passkeys/registration/verify', {}],
      ['auth/passkeys/registration/verify', { response: 'string' }],
      ['auth/passkeys/registration/verify', { response: { ...registration, type: 'password' } }],
      [
        'auth/passkeys/registration/verify',
        { response: { ...registration, response: { ...registration.response, clientDataJSON: 'a b c' } } },
      ],
      [
        'auth/passkeys/registration/verify',
        { response: { ...registration, response: { ...registration.response, clientDataJSON: garbage } } },
      ],
      [
        'auth/passkeys/registration/verify',
        { response: { ...registration, response: { clientDataJSON: registration.response.clientDataJSON } } },
      ],
      ['auth/passkeys/registration/verify', { response: registration, name: 'x'.repeat(61) }],
      ['auth/passkeys/registration/verify', { response: registration, name: 'a\u0000b' }],
      [
        'auth/passkeys/registration/verify',
        { response: { ...registration, response: { ...registration.response, attestationObject: 'AAAA' } } },
      ],
      ['auth/passkeys/login/verify', {}],
      ['auth/passkeys/login/verify', { response: { ...assertion, response: { ...assertion.response, clientDataJSON: noChallenge } } }],
      ['auth/passkeys/login/verify', { response: { ...assertion, response: { clientDataJSON: assertion.response.clientDataJSON } } }],
      ['auth/passkeys/login/verify', { response: { ...assertion, response: { ...assertion.response, signature: 'AAAA' } } }],
      ['auth/passkeys/login/verify', { response: { ...assertion, id: 'x'.repeat(20_000), rawId: 'x' } }],
      ['auth/step-up/verify', {}],
      ['auth/step-up/verify', { response: assertion, recoveryCode: 'ABCDE-FGHJK' }],
      ['auth/step-up/verify', { recoveryCode: 42 }],
      ['auth/step-up/verify', { recoveryCode: 'short' }],
    ];
    for (const [url, body] of bodies) {
      const res = await api(t, 'POST', url, token, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body).slice(0, 200)}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/passkeys/login/verify',
      payload: 'nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(text.statusCode).toBe(400);
    expect((await api(t, 'DELETE', 'auth/passkeys/not-a-uuid', token)).statusCode).toBe(400);
  });
});
