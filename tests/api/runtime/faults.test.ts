import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/contract/chat.ts';
import { openDatabase } from '../../../src/server/db/client.ts';
import type { BuiltApp } from '../../../src/server/app.ts';
import { chatClient, nextEvent, request } from '../../helpers/chat-client.ts';
import { createThrowAwayDatabase, loginAs } from '../../helpers/test-app.ts';
import { type ServerProcess, buildServer, freePort, isListening, startServer, waitFor } from './server-process.ts';

// Faults: PostgreSQL going away under load costs requests (503 for the gap), never the
// process, and service comes back without a restart; Redis stopping while two instances run
// crashes nothing and chat keeps working within each instance.
const baseUrl = process.env.TEST_DATABASE_URL;
const REDIS_BIN = '/usr/bin/redis-server';

// One compiled server for both parts of the file (a build is seconds of esbuild on a busy machine).
let main: string;
beforeAll(() => {
  if (baseUrl) main = buildServer();
}, 180_000);
afterAll(() => {
  if (main) rmSync(dirname(main), { recursive: true, force: true });
});

describe.skipIf(!baseUrl)('PostgreSQL restarted under load', () => {
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>>;
  let server: ServerProcess;
  let admin: pg.Client;
  const name = () => new URL(db.url).pathname.slice(1);

  beforeAll(async () => {
    db = await createThrowAwayDatabase();
    server = await startServer(main, { DATABASE_URL: db.url, WEB_DIST_DIR: '/nonexistent' });
    admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
  }, 180_000);
  afterAll(async () => {
    await admin?.query(`alter database ${name()} allow_connections true`).catch(() => {});
    await admin?.end();
    await server?.stop();
    await db?.drop();
  });

  it('answers 503 during the gap and recovers without a restart', async () => {
    const database = await openDatabase({ databaseUrl: db.url, dataDir: 'memory' });
    const { headers } = await loginAs({ deps: { db: database.db } } as BuiltApp, 'customer@example.com');
    await database.close();
    const seen: number[] = [];
    let running = true;
    const client = async () => {
      while (running) {
        // A signed-in order status read always asks the database (public reads such as /promotion
        // are cached in memory and would hide the outage); an unknown order is a plain 404.
        const res = await fetch(`${server.url}/api/v1/status/getStatus/order/ORD0000000000`, { headers });
        seen.push(res.status);
        const body = (await res.json()) as { code?: string };
        if (res.status === 503) expect(body.code).toBe('UNAVAILABLE');
      }
    };
    const load = Promise.all([client(), client(), client()]);
    await waitFor('requests before the outage', () => seen.filter((s) => s === 404).length >= 10, 60_000, 10);

    // The outage, as a restart looks from the app: every connection is cut, and new ones are
    // refused for a while. (The shared server itself is never restarted.)
    const before = seen.length;
    await admin.query(`alter database ${name()} allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name()]);
    await waitFor('503s during the gap', () => seen.slice(before).filter((s) => s === 503).length >= 3, 60_000, 10);
    // Health reuses a good answer for a second (decision 070): it says 503 within a few seconds.
    await waitFor('health to say 503', async () => (await fetch(`${server.url}/api/v1/health`)).status === 503, 15_000);
    await admin.query(`alter database ${name()} allow_connections true`);

    const after = seen.length;
    await waitFor('recovery', () => seen.slice(after).filter((s) => s === 404).length >= 10, 60_000, 10);
    running = false;
    await load;

    expect(seen.filter((s) => s !== 404 && s !== 503)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
  }, 180_000);
});

describe.skipIf(!baseUrl || !existsSync(REDIS_BIN))('Redis stopped while two instances run', () => {
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>>;
  let redis: ChildProcess;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createThrowAwayDatabase();
    const port = await freePort();
    redis = spawn(REDIS_BIN, ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitFor('redis', () => isListening(port), 10_000);
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      WEB_DIST_DIR: '/nonexistent',
      ADMIN_EMAILS: 'founder@example.com',
    };
    servers.push(...(await Promise.all([startServer(main, env), startServer(main, env)])));
  }, 180_000);
  afterAll(async () => {
    for (const s of servers) await s.stop();
    redis?.kill('SIGKILL');
    await db?.drop();
  });

  it('crashes nothing, and chat keeps working within each instance', async () => {
    const database = await openDatabase({ databaseUrl: db.url, dataDir: 'memory' });
    const { token } = await loginAs({ deps: { db: database.db } } as BuiltApp, 'founder@example.com', 'admin');
    // The servers run the default ADMIN_STEP_UP=passkey: the founder's session is one a passkey
    // confirmed (the ceremony itself is tested in features/passkeys), else the console stays shut.
    await database.query('update sessions set confirmed_at = now()');
    await database.close();

    const exited = new Promise<never>((_, reject) => redis.once('exit', () => reject(new Error('unused'))));
    exited.catch(() => {});
    redis.kill('SIGKILL');
    await waitFor('redis to stop', () => redis.exitCode !== null || redis.signalCode !== null, 10_000);

    for (const server of servers) {
      const admin = await chatClient(server.url, token);
      const visitor = await chatClient(server.url);
      try {
        await request(admin, 'getActiveChats');
        const res = await fetch(`${server.url}/api/v1/chat/start`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"userId":"guest"}',
        });
        expect(res.status, server.output()).toBe(200);
        const { chatId } = (await res.json()) as { chatId: string };
        expect(await request(visitor, 'joinChat', chatId)).toMatchObject({ ok: true });
        expect(await request(admin, 'joinChat', chatId)).toMatchObject({ ok: true });
        const atAdmin = nextEvent<ChatMessage>(admin, 'newMessage', (m) => m.sender === 'user', 20_000);
        await request(visitor, 'sendMessage', { chatId, message: 'Redis is down, am I heard?' });
        expect((await atAdmin).message).toBe('Redis is down, am I heard?');
        const atVisitor = nextEvent<ChatMessage>(visitor, 'newMessage', (m) => m.sender === 'admin', 20_000);
        await request(admin, 'adminSendMessage', { chatId, message: 'Yes, on this instance.' });
        expect((await atVisitor).message).toBe('Yes, on this instance.');
      } finally {
        admin.disconnect();
        visitor.disconnect();
      }
    }
    // Give the Redis clients time to fail their reconnects and publishes: nobody may die of it.
    await new Promise((r) => setTimeout(r, 3000));
    for (const server of servers) {
      expect(server.child.exitCode, server.output()).toBeNull();
      expect((await fetch(`${server.url}/api/v1/promotion`)).status).toBe(200);
      // Health names what is down, and stays 200: the database still answers.
      await waitFor(
        'health to report Redis down',
        async () => {
          const res = await fetch(`${server.url}/api/v1/health`);
          return res.status === 200 && ((await res.json()) as { redis?: string }).redis === 'down';
        },
        30_000,
      );
    }
    // …and both still stop cleanly, without ioredis's "Connection is closed." crash.
    for (const server of servers) server.child.kill('SIGTERM');
    for (const server of servers) {
      expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
      expect(server.output()).not.toMatch(/Connection is closed|uncaught/i);
    }
  }, 180_000);
});
