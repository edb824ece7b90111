import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createThrowAwayDatabase, loginAs } from '../../../tests/helpers/test-app.ts';
import { PROMOTION_CACHE_MS } from '../features/promotion/routes.ts';
import { SESSION_CACHE_MS } from '../features/auth/session-cache.ts';

// Every cache has a clear invalidation on every instance. Two instances on one
// PostgreSQL database (the bus rides LISTEN/NOTIFY); each change is made on A and must show on B
// well before B's cache would expire by itself.
const baseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!baseUrl)('caches across two instances (PostgreSQL LISTEN/NOTIFY)', () => {
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>>;
  let a: BuiltApp;
  let b: BuiltApp;
  const start = () =>
    buildApp(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.url, ADMIN_STEP_UP: 'off' }, { webDistDir: '/nonexistent' }),
      { pollMail: false },
    );
  beforeAll(async () => {
    db = await createThrowAwayDatabase();
    a = await start();
    b = await start();
  });
  afterAll(async () => {
    await Promise.all([a?.app.close(), b?.app.close()]);
    await db?.drop();
  });

  it("shows the founder's new featured promotion on the other instance at once", async () => {
    expect(a.deps.bus.transport).toBe('postgres');
    const { headers } = await loginAs(a, 'founder@example.com', 'admin');
    const promotion = async () =>
      ((await b.app.inject({ url: '/api/v1/promotion' })).json() as { promotion: { code: string } | null }).promotion?.code;
    const before = await promotion(); // B caches it now
    await a.app.inject({ method: 'POST', url: '/api/v1/admin/coupons', headers, payload: { code: 'TWOINST', percent: 15 } });
    const changed = Date.now();
    expect(
      (await a.app.inject({ method: 'PUT', url: '/api/v1/admin/promotion', headers, payload: { couponCode: 'TWOINST' } })).statusCode,
    ).toBe(200);
    expect(before).not.toBe('TWOINST');
    await expect.poll(promotion, { timeout: PROMOTION_CACHE_MS, interval: 50 }).toBe('TWOINST');
    expect(Date.now() - changed).toBeLessThan(PROMOTION_CACHE_MS);
  });

  it('refuses a session on the other instance as soon as the user signs out everywhere', async () => {
    const { headers } = await loginAs(a, 'twice@example.com');
    const onB = async () => (await b.app.inject({ url: '/api/v1/auth/verifyToken', headers })).statusCode;
    expect(await onB()).toBe(200); // B caches the session now
    const signedOut = Date.now();
    expect((await a.app.inject({ method: 'POST', url: '/api/v1/auth/logoutAll', headers, payload: {} })).statusCode).toBe(200);
    await expect.poll(onB, { timeout: SESSION_CACHE_MS, interval: 20 }).toBe(401);
    // Well inside the TTL: the bus dropped it, not the clock.
    expect(Date.now() - signedOut).toBeLessThan(SESSION_CACHE_MS);
  });
});
