import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, startRedis, stopProcess } from '../../../tests/helpers/processes.ts';
import { buildTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { memoryCounter, operationKey } from './rate-limit-store.ts';

// Decision 091: counters per operation, shared through Redis (the Lua script path) between
// instances; the in-memory store's bound does not reset a running window while ended ones remain.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

describe('operationKey', () => {
  it('is one key for both spellings, HEAD counted as GET', () => {
    expect(operationKey('POST', '/api/v1/chat/chat/')).toBe('POST /api/v1/chat/chat');
    expect(operationKey('POST', '/api/v1/chat/chat')).toBe('POST /api/v1/chat/chat');
    expect(operationKey(['GET', 'HEAD'], '/')).toBe('GET,GET /');
  });
});

describe('in-memory counter bound', () => {
  it('sweeps ended windows before dropping a running one', async () => {
    let now = 0;
    const counter = memoryCounter(3, () => now);
    // A visitor on a one-hour window, two short windows of others.
    await counter.incr('active', 3_600_000);
    await counter.incr('active', 3_600_000);
    await counter.incr('short-1', 1000);
    await counter.incr('short-2', 1000);
    now = 5000; // the short windows ended; the map is full
    await counter.incr('newcomer', 60_000);
    // On main the first key in the map (the active visitor's) was dropped and its count restarted at 1.
    expect((await counter.incr('active', 3_600_000)).current).toBe(3);
  });

  it('when every window is running, drops the one that started first and stays bounded', async () => {
    let now = 0;
    const counter = memoryCounter(2, () => now);
    await counter.incr('first', 60_000);
    now = 10;
    await counter.incr('second', 60_000);
    now = 20;
    await counter.incr('third', 60_000); // full of running windows: 'first' goes
    expect((await counter.incr('second', 60_000)).current).toBe(2);
    expect((await counter.incr('first', 60_000)).current).toBe(1);
  });
});

describe('Redis store across two instances', () => {
  let redisProcess: ChildProcess | undefined;
  let redis: Redis;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const port = await freePort();
    redisProcess = await startRedis(port);
    const REDIS_URL = `redis://127.0.0.1:${port}`;
    redis = new Redis(REDIS_URL);
    [a, b] = [await buildTestApp({ REDIS_URL }), await buildTestApp({ REDIS_URL })];
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.quit();
    await stopProcess(redisProcess);
  });

  it('/chat/chat/ and /chat/chat share one counter through Redis, whichever instance answers', async () => {
    let answered = 0;
    let limited = 0;
    for (let i = 0; i < 40; i++) {
      const app = i % 2 ? b : a;
      const url = i % 4 < 2 ? '/api/v1/chat/chat/' : '/api/v1/chat/chat';
      const res = await app.app.inject({
        method: 'POST',
        url,
        payload: { user_input: 'What does a website cost?' },
        remoteAddress: '10.8.8.8',
      });
      expect(res.statusCode).toBeLessThan(500);
      if (res.statusCode === 429) limited++;
      else answered++;
    }
    // 20 a minute per address for the operation: not 20 per instance, not 20 per spelling.
    expect(answered).toBe(20);
    expect(limited).toBe(20);
    // The Lua script kept one key with an expiry in Redis.
    const keys = (await redis.keys('webagency-rl-*')).filter((k) => k.includes('/api/v1/chat/chat|'));
    expect(keys).toHaveLength(1);
    expect(keys[0]).toContain('POST /api/v1/chat/chat|');
    expect(await redis.get(keys[0]!)).toBe('40');
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Another address has its own counter.
    const other = await b.app.inject({
      method: 'POST',
      url: '/api/v1/chat/chat',
      payload: { user_input: 'hi' },
      remoteAddress: '10.8.8.9',
    });
    expect(other.statusCode).toBe(200);
  });
});
