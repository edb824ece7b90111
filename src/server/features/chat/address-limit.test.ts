import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, REDIS_BIN, startRedis, stopProcess } from '../../../../tests/helpers/processes.ts';
import { buildTestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, request } from '../../../../tests/helpers/chat-client.ts';
import { type AddressLimit, createAddressLimit } from './address-limit.ts';

// The chat's per-address message limit is a sliding window (decision 105): no span
// of 10 s may hold more than 30 taken messages, wherever the span starts. The clock is a parameter,
// so minutes of traffic run in milliseconds; the Redis variant runs against a private redis-server.

const MAX = 30;
const WINDOW = 10_000;
const log = pino({ level: 'silent' });

/** The largest number of taken messages inside any span (t - WINDOW, t]. */
function busiestSpan(times: number[]): number {
  let busiest = 0;
  for (let i = 0, start = 0; i < times.length; i++) {
    while (times[start]! <= times[i]! - WINDOW) start++;
    busiest = Math.max(busiest, i - start + 1);
  }
  return busiest;
}

type Clock = { t: number };
type Make = (clock: Clock) => AddressLimit;

function behavesAsASlidingWindow(make: () => Make, prefix: string) {
  it('lets no flood straddling a window boundary through twice (30 just before, 30 just after)', async () => {
    const clock = { t: 1_700_000_009_000 }; // 1 s before a multiple of 10 s, where the fixed window reset
    const limit = make()(clock);
    const taken: number[] = [];
    for (let i = 0; i < 60; i++) {
      clock.t += 33; // 60 messages in 2 s, across the boundary
      if (await limit.take(`${prefix}straddle`)) taken.push(clock.t);
    }
    expect(taken).toHaveLength(MAX);
    expect(busiestSpan(taken)).toBe(MAX);
  });

  it('never holds more than 30 in any 10 s span of random traffic, and takes again as old messages leave', async () => {
    const clock = { t: 1_700_000_000_000 };
    const limit = make()(clock);
    const taken: number[] = [];
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 1500; i++) {
      // Bursts and pauses: mostly a few ms apart, sometimes seconds.
      clock.t += random() < 0.05 ? Math.floor(random() * 8000) : Math.floor(random() * 60);
      if (await limit.take(`${prefix}random`)) taken.push(clock.t);
    }
    expect(busiestSpan(taken)).toBeLessThanOrEqual(MAX);
    // The limit is used, not just respected: over ~2 minutes far more than one window's worth.
    expect(taken.length).toBeGreaterThan(3 * MAX);
  });

  it('does not count refused messages: the address writes again once its oldest message is 10 s old', async () => {
    const clock = { t: 1_700_000_000_000 };
    const limit = make()(clock);
    const address = `${prefix}refused`;
    for (let i = 0; i < MAX; i++) expect(await limit.take(address)).toBe(true);
    for (let i = 0; i < 100; i++) {
      clock.t += 99;
      expect(await limit.take(address)).toBe(false);
    }
    clock.t = 1_700_000_000_000 + WINDOW; // the first 30 all left the window
    expect(await limit.take(address)).toBe(true);
    expect(await limit.take(`${prefix}another address`)).toBe(true);
  });
}

describe('in memory', () => {
  behavesAsASlidingWindow(() => (clock) => createAddressLimit({ max: MAX, windowMs: WINDOW, log, now: () => clock.t }), '');
});

describe.skipIf(!existsSync(REDIS_BIN))('in Redis (REDIS_URL set)', () => {
  let server: ChildProcess | undefined;
  let port: number;
  let redis: Redis;
  let other: Redis;
  let run = 0;
  beforeAll(async () => {
    port = await freePort();
    server = await startRedis(port);
    redis = new Redis(port, '127.0.0.1');
    other = new Redis(port, '127.0.0.1');
  });
  afterAll(async () => {
    await Promise.allSettled([redis?.quit(), other?.quit()]);
    await stopProcess(server);
  });

  // Two limiters on one Redis are two instances: taking alternately, they share one log.
  behavesAsASlidingWindow(() => {
    const prefix = `run${++run}:`;
    return (clock) => {
      const a = createAddressLimit({ max: MAX, windowMs: WINDOW, redis, log, now: () => clock.t });
      const b = createAddressLimit({ max: MAX, windowMs: WINDOW, redis: other, log, now: () => clock.t });
      let turn = 0;
      return { take: (address) => (turn++ % 2 === 0 ? a : b).take(prefix + address) };
    };
  }, 'shared:');

  it('keeps one sorted set per address that expires a window after its newest message', async () => {
    const limit = createAddressLimit({ max: MAX, windowMs: WINDOW, redis, log });
    for (let i = 0; i < 40; i++) await limit.take('10.0.0.9');
    expect(await redis.zcard('webagency-chat-msg:10.0.0.9')).toBe(MAX);
    const ttl = await redis.pttl('webagency-chat-msg:10.0.0.9');
    expect(ttl).toBeGreaterThan(WINDOW - 2000);
    expect(ttl).toBeLessThanOrEqual(WINDOW);
  });

  it('counts locally while Redis does not answer', async () => {
    const dead = new Redis(await freePort(), '127.0.0.1', { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    dead.on('error', () => {});
    const limit = createAddressLimit({ max: 3, windowMs: WINDOW, redis: dead, log });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await limit.take('10.0.0.10'));
    expect(answers).toEqual([true, true, true, false, false]);
    dead.disconnect();
  });

  it('is one limit for an address across two running instances on one Redis (sockets on both, 30 stored in all)', async () => {
    const apps = await Promise.all([0, 1].map(() => buildTestApp({ REDIS_URL: `redis://127.0.0.1:${port}`, TRUST_PROXY: 'true' })));
    const sockets: Awaited<ReturnType<typeof chatClient>>[] = [];
    try {
      const sends = await Promise.all(
        apps.map(async (t) => {
          await t.app.listen({ port: 0, host: '127.0.0.1' });
          const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
          const { chatId } = (await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: {} })).json() as { chatId: string };
          const mine = await Promise.all(Array.from({ length: 10 }, () => chatClient(url, undefined, '10.66.0.1')));
          sockets.push(...mine);
          return { t, chatId, mine };
        }),
      );
      const acks = await Promise.all(
        sends.flatMap(({ chatId, mine }) =>
          mine.flatMap((s, i) => Array.from({ length: 4 }, (_, j) => request(s, 'sendMessage', { chatId, message: `m ${i}.${j}` }))),
        ),
      );
      let stored = 0;
      for (const { t, chatId } of sends) {
        stored += (await t.deps.database.query('select 1 from chat_messages where conversation_id = $1', [chatId])).length;
      }
      expect(acks.filter((a) => a.ok)).toHaveLength(MAX);
      expect(stored).toBe(MAX);
    } finally {
      for (const s of sockets) s.disconnect();
      await Promise.all(apps.map((t) => t.close()));
    }
  }, 60_000);
});
