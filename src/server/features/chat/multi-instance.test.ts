import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatSummary } from '../../../contract/chat.ts';
import { buildApp, type BuiltApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { createThrowAwayDatabase, loginAs } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, request } from '../../../../tests/helpers/chat-client.ts';

// DESIGN §7: two server instances share chat events through PostgreSQL (or Redis). The visitor is
// connected to one instance and the admin to the other; messages must flow both ways.
const baseUrl = process.env.TEST_DATABASE_URL;
const REDIS_BIN = '/usr/bin/redis-server';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitForPort(port: number, timeoutMs = 5000) {
  for (let i = 0; i < timeoutMs / 50; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

async function startInstance(env: Record<string, string>) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_EMAILS: 'founder@example.com', ...env }, { webDistDir: '/nonexistent' });
  const built = await buildApp(config, { pollMail: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...built, url: `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}` };
}

function conversationAcrossInstances(env: () => Record<string, string>) {
  let a: BuiltApp & { url: string };
  let b: BuiltApp & { url: string };
  beforeAll(async () => {
    // Started together, as a load balancer would: migrations and the adapter must not race.
    [a, b] = await Promise.all([startInstance(env()), startInstance(env())]);
  });
  afterAll(async () => {
    await Promise.all([a?.app.close(), b?.app.close()]);
  });

  it('carries messages both ways between a visitor on one instance and the admin on the other', async () => {
    const { token } = await loginAs(b, 'founder@example.com', 'admin');
    const admin = await chatClient(b.url, token);
    const visitor = await chatClient(a.url);
    try {
      await request(admin, 'getActiveChats');
      const appeared = nextEvent<ChatSummary>(admin, 'chatSummary');
      const res = await a.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' } });
      const { chatId } = res.json() as { chatId: string };
      expect((await appeared).chatId).toBe(chatId);

      const presence = nextEvent<{ online: boolean }>(visitor, 'adminPresence');
      await request(visitor, 'joinChat', chatId);
      expect(await presence).toEqual({ online: true });
      await request(admin, 'joinChat', chatId);

      const atAdmin = nextEvent<ChatMessage>(admin, 'newMessage', (m) => m.sender === 'user');
      await request(visitor, 'sendMessage', { chatId, message: 'Hello from instance A' });
      expect(await atAdmin).toMatchObject({ chatId, sender: 'user', message: 'Hello from instance A' });

      // Each side also receives its own message back; wait for the other side's.
      const atVisitor = nextEvent<ChatMessage>(visitor, 'newMessage', (m) => m.sender === 'admin');
      await request(admin, 'adminSendMessage', { chatId, message: 'Hello from instance B' });
      expect(await atVisitor).toMatchObject({ chatId, sender: 'admin', message: 'Hello from instance B' });

      // A long message goes through the adapter's attachment table (over NOTIFY's 8000 bytes).
      const long = nextEvent<ChatMessage>(admin, 'newMessage', (m) => m.sender === 'user' && m.message.length === 2000);
      await request(visitor, 'sendMessage', { chatId, message: 'é'.repeat(2000) });
      await long;
    } finally {
      admin.disconnect();
      visitor.disconnect();
      // Let the instances tell each other about the admin leaving before they shut down.
      await new Promise((r) => setTimeout(r, 300));
    }
  });
}

describe.skipIf(!baseUrl)('two instances on one PostgreSQL (postgres adapter)', () => {
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>>;
  beforeAll(async () => {
    db = await createThrowAwayDatabase();
  });
  // Registered first so that it runs last (after hooks run in reverse order).
  afterAll(async () => {
    await db?.drop();
  });
  conversationAcrossInstances(() => ({ DATABASE_URL: db.url }));
});

describe.skipIf(!baseUrl || !existsSync(REDIS_BIN))('two instances with REDIS_URL (redis adapter)', () => {
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>>;
  let redis: ChildProcess;
  let redisPort: number;
  beforeAll(async () => {
    db = await createThrowAwayDatabase();
    redisPort = await freePort();
    redis = spawn(REDIS_BIN, ['--port', String(redisPort), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitForPort(redisPort);
  });
  afterAll(async () => {
    redis?.kill();
    await db?.drop();
  });
  conversationAcrossInstances(() => ({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${redisPort}` }));
});

// The wording: two server *processes* (as an operator runs them), one PostgreSQL.
describe.skipIf(!baseUrl)('two server processes on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>>;
  const procs: ChildProcess[] = [];
  const urls: string[] = [];
  beforeAll(async () => {
    db = await createThrowAwayDatabase();
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: db.url, WEB_DIST_DIR: '/nonexistent', ADMIN_EMAILS: 'founder@example.com', TEST_DB: '' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      procs.push(child);
      urls.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(ports.map((p) => waitForPort(p, 40_000)));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(procs.map((p) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : (p.once('exit', resolve), p.kill('SIGTERM'))))));
    await db?.drop();
  });

  it('carries messages both ways between the processes', async () => {
    const database = await openDatabase({ databaseUrl: db.url, dataDir: 'memory' });
    const { token } = await loginAs({ deps: { db: database.db } } as BuiltApp, 'founder@example.com', 'admin');
    await database.close();
    const admin = await chatClient(urls[1]!, token);
    const visitor = await chatClient(urls[0]!);
    try {
      expect(await request(admin, 'getActiveChats')).toMatchObject({ ok: true });
      const appeared = nextEvent<ChatSummary>(admin, 'chatSummary');
      const { chatId } = (await (await fetch(`${urls[0]}/api/v1/chat/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"userId":"guest"}' })).json()) as { chatId: string };
      expect((await appeared).chatId).toBe(chatId);
      await request(visitor, 'joinChat', chatId);
      await request(admin, 'joinChat', chatId);
      const atAdmin = nextEvent<ChatMessage>(admin, 'newMessage', (m) => m.sender === 'user');
      await request(visitor, 'sendMessage', { chatId, message: 'Hello from process A' });
      expect((await atAdmin).message).toBe('Hello from process A');
      const atVisitor = nextEvent<ChatMessage>(visitor, 'newMessage', (m) => m.sender === 'admin');
      await request(admin, 'adminSendMessage', { chatId, message: 'Hello from process B' });
      expect((await atVisitor).message).toBe('Hello from process B');
    } finally {
      admin.disconnect();
      visitor.disconnect();
    }
  });
});
