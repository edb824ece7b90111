import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../tests/helpers/test-app.ts';
import { HEALTH_REUSE_MS } from '../features/health/routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('platform', () => {
  it('reports health when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('reports 503 within about a second of the database going away, and 200 at once when it is back', async () => {
    const original = t.deps.database.ping;
    t.deps.database.ping = async () => false;
    const wentAway = Date.now();
    try {
      // A good check is reused for HEALTH_REUSE_MS (1 s), a failed one never.
      await expect
        .poll(async () => (await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode, { timeout: 5_000, interval: 50 })
        .toBe(503);
      expect(Date.now() - wentAway).toBeLessThan(HEALTH_REUSE_MS + 500);
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
    } finally {
      t.deps.database.ping = original;
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });

  it('a burst of health checks asks the database once per second at most', async () => {
    const original = t.deps.database.ping;
    let pings = 0;
    t.deps.database.ping = () => {
      pings++;
      return original();
    };
    try {
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 50 }, () => t.app.inject({ method: 'GET', url: '/api/v1/health' })));
      for (let i = 0; i < 50; i++) answers.push(await t.app.inject({ method: 'GET', url: '/api/v1/health' }));
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      const seconds = (performance.now() - started) / 1000;
      expect(pings).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    } finally {
      t.deps.database.ping = original;
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/nope', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('publishes the OpenAPI document with every route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toContain('/api/v1/health');
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('allows CORS only for configured origins', async () => {
    const good = await t.app.inject({ method: 'GET', url: '/api/v1/health', headers: { origin: 'http://localhost:3000' } });
    expect(good.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/health', headers: { origin: 'https://evil.example' } });
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps sessions: a real token resolves, a random one does not', async () => {
    const { token } = await loginAs(t, 'platform@example.com');
    const { findSession } = await import('../features/auth/sessions.ts');
    expect((await findSession(t.deps.db, token))?.user.email).toBe('platform@example.com');
    expect(await findSession(t.deps.db, 'random-token')).toBeNull();
  });
});
