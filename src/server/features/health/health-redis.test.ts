import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { freePort, REDIS_BIN, startRedis, stopProcess } from '../../../../tests/helpers/processes.ts';

// /api/v1/health keeps its contract and names Redis's state when REDIS_URL is set.
describe.skipIf(!existsSync(REDIS_BIN))('health with REDIS_URL', () => {
  let t: TestApp;
  let redis: ChildProcess | undefined;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await buildTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await stopProcess(redis);
  });

  const health = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    return { code: res.statusCode, body: res.json() as { status: string; redis?: string } };
  };
  const until = async (want: string) => {
    for (let i = 0; i < 200; i++) {
      const h = await health();
      if (h.body.redis === want) return h;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`redis never became ${want}`);
  };

  it('says redis is up, then down (still 200: the database answers), then up again', async () => {
    expect(await until('up')).toEqual({ code: 200, body: { status: 'ok', redis: 'up' } });
    await stopProcess(redis);
    expect(await until('down')).toEqual({ code: 200, body: { status: 'ok', redis: 'down' } });
    redis = await startRedis(port);
    expect(await until('up')).toEqual({ code: 200, body: { status: 'ok', redis: 'up' } });
  }, 60_000);

  it('is still 503 when the database does not answer, and still names Redis', async () => {
    const original = t.deps.database.ping;
    t.deps.database.ping = async () => false;
    try {
      // A good database check is reused for up to HEALTH_REUSE_MS (1 s), a failed one never.
      await expect.poll(health, { timeout: 5_000, interval: 50 }).toEqual({ code: 503, body: { status: 'unavailable', redis: 'up' } });
    } finally {
      t.deps.database.ping = original;
    }
  });
});
