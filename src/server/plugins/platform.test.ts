import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../tests/helpers/test-app.ts';

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

  it('reports 503 when the database does not answer', async () => {
    const original = t.deps.database.ping;
    t.deps.database.ping = async () => false;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
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
