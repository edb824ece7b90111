import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createInvalidationBus, type InvalidationBus } from './invalidation-bus.ts';

// Two buses stand for two instances: what one publishes, the other's handlers receive.
const log = pino({ level: 'silent' });
const REDIS_BIN = '/usr/bin/redis-server';
const pgUrl = process.env.TEST_DATABASE_URL;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function crossDelivery(a: InvalidationBus, b: InvalidationBus) {
  const seenA: (string | undefined)[] = [];
  const seenB: (string | undefined)[] = [];
  a.subscribe('session.revoked', (k) => seenA.push(k));
  b.subscribe('session.revoked', (k) => seenB.push(k));
  a.publish('session.revoked', 'sess-1');
  expect(seenA).toEqual(['sess-1']); // local handlers run at once, and only once
  await expect.poll(() => seenB, { timeout: 10_000 }).toEqual(['sess-1']);
  b.publish('session.revoked');
  await expect.poll(() => seenA, { timeout: 10_000 }).toEqual(['sess-1', undefined]);
  expect(seenB).toEqual(['sess-1', undefined]);
}

describe('invalidation bus', () => {
  it('runs local handlers on PGlite (one process)', async () => {
    const bus = await createInvalidationBus({ log });
    const seen: string[] = [];
    bus.subscribe('promotion', () => seen.push('x'));
    bus.publish('promotion');
    expect(bus.transport).toBe('local');
    expect(seen).toEqual(['x']);
  });

  describe.skipIf(!existsSync(REDIS_BIN))('over Redis pub/sub', () => {
    let redis: ChildProcess | undefined;
    const buses: InvalidationBus[] = [];
    afterAll(async () => {
      await Promise.all(buses.map((b) => b.close()));
      redis?.kill();
    });
    it('delivers to the other instance', async () => {
      const port = await freePort();
      redis = spawn(REDIS_BIN, ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      const url = `redis://127.0.0.1:${port}`;
      const listening = () =>
        new Promise<boolean>((resolve) => {
          const c = connect(port, '127.0.0.1', () => resolve(!!c.end()));
          c.on('error', () => resolve(false));
        });
      await expect.poll(listening, { timeout: 10_000 }).toBe(true);
      buses.push(await createInvalidationBus({ redisUrl: url, log }), await createInvalidationBus({ redisUrl: url, log }));
      expect(buses[0]!.transport).toBe('redis');
      await crossDelivery(buses[0]!, buses[1]!);
    });
  });

  describe.skipIf(!pgUrl)('over PostgreSQL LISTEN/NOTIFY', () => {
    const buses: InvalidationBus[] = [];
    let pool: pg.Pool | undefined;
    afterAll(async () => {
      await Promise.all(buses.map((b) => b.close()));
      await pool?.end();
    });
    it('delivers to the other instance', async () => {
      pool = new pg.Pool({ connectionString: pgUrl, max: 2 });
      buses.push(
        await createInvalidationBus({ postgresUrl: pgUrl, pool, log }),
        await createInvalidationBus({ postgresUrl: pgUrl, pool, log }),
      );
      expect(buses[0]!.transport).toBe('postgres');
      await crossDelivery(buses[0]!, buses[1]!);
    });
  });
});
