import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { buildTestApp, loginAs, type TestApp } from '../../../tests/helpers/test-app.ts';
import { pgliteFolder } from '../../../tests/helpers/pglite-copies.ts';
import { seedPaidOrder } from '../../../tests/fixtures/paid-orders.ts';
import { lastCodeFor } from '../../../tests/fixtures/sign-in.ts';
import { loginOptions, newAuthenticator, registrationOptions } from '../../../tests/fixtures/passkeys.ts';
import { SECRET_REPLAY_ANSWER } from './idempotency.ts';

// Answers that carry a secret are never kept for replay (docs/decisions/331-secrets-never-replayed.md).
// Every secret the API hands out in this run — session tokens, site-review links' tokens, recovery
// codes — is asked for with an Idempotency-Key, replayed (409), and then looked for in a copy of the
// database: every file of the PGlite data directory (the WAL included), or on PostgreSQL
// (TEST_DB=postgres) the contents of every table.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

const onPostgres = process.env.TEST_DB === 'postgres';
let t: TestApp;
let dir: string | undefined;
let database: Database | undefined;
const secrets: { what: string; value: string }[] = [];
const handedOut = (what: string, value: string) => {
  expect(value.length, what).toBeGreaterThanOrEqual(8);
  secrets.push({ what, value });
};

/** The app on a PGlite data directory on disk (a copy of the run's migrated one), so its files can be read. */
async function appOnDisk(): Promise<TestApp> {
  dir = mkdtempSync(join(tmpdir(), 'secret-answers-'));
  const dataDir = pgliteFolder(join(dir, 'data'));
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', ADMIN_STEP_UP: 'off' },
    { dataDir, webDistDir: '/nonexistent' },
  );
  database = await openDatabase({ dataDir });
  const built = await buildApp(config, { database, pollMail: false });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await built.app.close();
    await database!.close();
  };
  return { ...built, close };
}

beforeAll(async () => {
  t = onPostgres ? await buildTestApp() : await appOnDisk();
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let keys = 0;
const post = (url: string, token: string | undefined, payload: unknown = {}, key = `secret-test-${++keys}`) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/${url}`,
    remoteAddress: `10.77.0.${keys % 250}`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'idempotency-key': key },
    payload: payload as object,
  });

/** The same request again with the same key: a 409 that says so, and no secret in it. */
async function replayIsRefused(url: string, token: string | undefined, payload: unknown, key: string, secret: string) {
  const again = await post(url, token, payload, key);
  expect(again.statusCode, again.body).toBe(409);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json()).toEqual(SECRET_REPLAY_ANSWER);
  expect(again.json().message).toMatch(/^Already done: ask for a new one\./);
  expect(again.body).not.toContain(secret);
}

describe('secrets handed out are never stored for replay', () => {
  it('recovery codes of a first passkey: shown once, the replay is a 409', async () => {
    const owner = await loginAs(t, 'secrets.owner@example.com', 'admin');
    handedOut('a session token', owner.token);
    const authenticator = newAuthenticator();
    const body = { response: authenticator.register(await registrationOptions(t, owner.token)), name: 'Laptop' };
    const res = await post('auth/passkeys/registration/verify', owner.token, body, 'register-1');
    expect(res.statusCode, res.body).toBe(200);
    const codes = res.json().recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    codes.forEach((c) => handedOut('a recovery code', c));
    await replayIsRefused('auth/passkeys/registration/verify', owner.token, body, 'register-1', codes[0]!);

    // Signing in with the passkey while a session is open: the new session token is not kept either.
    const login = { response: authenticator.assert(await loginOptions(t)) };
    const signedIn = await post('auth/passkeys/login/verify', owner.token, login, 'passkey-login-1');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    handedOut('a passkey session token', signedIn.json().token);
    await replayIsRefused('auth/passkeys/login/verify', owner.token, login, 'passkey-login-1', signedIn.json().token);
  });

  it("site-review links' tokens (the customer's and the founder's): the replay is a 409", async () => {
    const owner = await loginAs(t, 'secrets.owner@example.com', 'admin');
    const { customer, orderId } = await seedPaidOrder(t, 'secrets.customer@example.com');
    handedOut("the customer's session token", customer.token);
    const round = await post(`admin/orders/${orderId}/reviews`, owner.token, {
      kind: 'final',
      title: 'Staging',
      fileIds: [],
      previewUrl: 'https://staging.secrets.example/',
    });
    expect(round.statusCode, round.body).toBe(201);
    const roundId = round.json().review.id as string;
    for (const [url, token] of [
      [`orders/${orderId}/reviews/${roundId}/site-link`, customer.token],
      [`admin/orders/${orderId}/reviews/${roundId}/site-link`, owner.token],
    ] as const) {
      const res = await post(url, token, {}, `link-${url}`);
      expect(res.statusCode, res.body).toBe(200);
      const siteToken = new URL(res.json().url).hash.replace('#wc-review=', '');
      handedOut('a site-review token', siteToken);
      await replayIsRefused(url, token, {}, `link-${url}`, siteToken);
    }
  });

  it('a session token from a code, asked while signed in: the replay is a 409; answers without a secret are still replayed', async () => {
    const customer = await loginAs(t, 'secrets.code@example.com');
    const sent = await post('auth/sendLoginOtp', undefined, { email: 'secrets.code@example.com' });
    expect(sent.statusCode, sent.body).toBe(200);
    const body = { email: 'secrets.code@example.com', otp: await lastCodeFor(t, 'secrets.code@example.com') };
    const res = await post('auth/verifyOtp', customer.token, body, 'verify-1');
    expect(res.statusCode, res.body).toBe(200);
    handedOut('a session token from a code', res.json().token);
    await replayIsRefused('auth/verifyOtp', customer.token, body, 'verify-1', res.json().token);

    // A message carries no secret: its replay is the stored answer, as before.
    const { customer: buyer, orderId } = await seedPaidOrder(t, 'secrets.buyer@example.com');
    const first = await post(`orders/${orderId}/messages`, buyer.token, { text: 'Hello' }, 'message-1');
    expect(first.statusCode, first.body).toBe(201);
    const again = await post(`orders/${orderId}/messages`, buyer.token, { text: 'Hello' }, 'message-1');
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
  });

  it('no secret handed out in this run is anywhere in a copy of the data', async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(16);
    // Each of the five keyed answers with a secret left only its 409 behind.
    const [kept] = await t.deps.database.query<{ n: number }>(
      "select count(*)::int as n from idempotency_keys where status = 409 and body like '%Already done%'",
    );
    expect(kept!.n).toBe(5);
    let haystack: Buffer[];
    if (onPostgres) {
      const tables = await t.deps.database.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public'");
      haystack = [];
      for (const { name } of tables) {
        const rows = await t.deps.database.query<{ r: string }>(`select t::text as r from public."${name}" t`);
        haystack.push(Buffer.from(rows.map((r) => r.r).join('\n')));
      }
      expect(tables.map((r) => r.name)).toContain('idempotency_keys');
    } else {
      // Everything written reaches the files: the app is closed, then its data directory copied and read.
      await t.close();
      const copy = join(dir!, 'copy');
      cpSync(join(dir!, 'data'), copy, { recursive: true });
      const files = (readdirSync(copy, { recursive: true }) as string[]).map((f) => join(copy, f)).filter((f) => statSync(f).isFile());
      expect(files.some((f) => f.includes('pg_wal'))).toBe(true);
      haystack = files.map((f) => readFileSync(f));
    }
    // The search finds what is stored: an Idempotency-Key is kept as it was sent.
    expect(haystack.some((b) => b.includes('register-1'))).toBe(true);
    const found = secrets.filter((s) => haystack.some((b) => b.includes(s.value)));
    expect(found).toEqual([]);
  });
});
