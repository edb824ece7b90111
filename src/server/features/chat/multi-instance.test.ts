import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatSummary } from '../../../contract/chat.ts';
import { buildApp, type BuiltApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { ALWAYS_OPEN, createThrowAwayDatabase, loginAs } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, request } from '../../../../tests/helpers/chat-client.ts';
import { freePort, waitForPort } from '../../../../tests/helpers/processes.ts';

// Two server instances share chat events through PostgreSQL (or Redis). The visitor is
// connected to one instance and the admin to the other; messages must flow both ways.
const baseUrl = process.env.TEST_DATABASE_URL;
const REDIS_BIN = '/usr/bin/redis-server';

async function startInstance(env: Record<string, string>) {
  // Hours that never close, as buildTestApp's: the visitor sees the agency online whatever the day (decision 347).
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ADMIN_EMAILS: 'founder@example.com',
      ADMIN_STEP_UP: 'off',
      CHAT_BUSINESS_HOURS: ALWAYS_OPEN,
      ...env,
    },
    { webDistDir: '/nonexistent' },
  );
  const built = await buildApp(config, { pollMail: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...built, url: `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}` };
}

type Instance = BuiltApp & { url: string };

function conversationAcrossInstances(env: () => Record<string, string>, more?: (instances: () => [Instance, Instance]) => void) {
  let a: Instance;
  let b: Instance;
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
      const res = await a.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' } });
      const { chatId } = res.json() as { chatId: string };
      // The chat reaches the console on the other instance with its first message.
      const appeared = nextEvent<ChatSummary>(admin, 'chatSummary', (s) => s.chatId === chatId);

      const presence = nextEvent<{ online: boolean }>(visitor, 'adminPresence');
      await request(visitor, 'joinChat', chatId);
      expect(await presence).toEqual({ online: true });
      await request(admin, 'joinChat', chatId);

      const atAdmin = nextEvent<ChatMessage>(admin, 'newMessage', (m) => m.sender === 'user');
      await request(visitor, 'sendMessage', { chatId, message: 'Hello from instance A' });
      expect(await atAdmin).toMatchObject({ chatId, sender: 'user', message: 'Hello from instance A' });
      expect((await appeared).lastMessage).toBe('Hello from instance A');

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

  it("disconnects a signed-out session's sockets on the other instance too", async () => {
    const first = await loginAs(a, 'customer@example.com');
    const second = await loginAs(a, 'customer@example.com');
    const onB = await chatClient(b.url, first.token);
    const otherSession = await chatClient(b.url, second.token);
    try {
      const gone = new Promise((resolve) => onB.once('disconnect', resolve));
      expect((await a.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: first.headers })).statusCode).toBe(200);
      expect(await gone).toBe('io server disconnect');
      // Only that session: the customer's other session keeps its socket until logoutAll.
      expect(await request(otherSession, 'getActiveChats')).toMatchObject({ ok: false, code: 'FORBIDDEN' });
      expect(otherSession.connected).toBe(true);
      const allGone = new Promise((resolve) => otherSession.once('disconnect', resolve));
      expect((await a.app.inject({ method: 'POST', url: '/api/v1/auth/logoutAll', headers: second.headers })).statusCode).toBe(200);
      expect(await allGone).toBe('io server disconnect');
    } finally {
      onB.disconnect();
      otherSession.disconnect();
    }
  });
  more?.(() => [a, b]);
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
  conversationAcrossInstances(
    () => ({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${redisPort}`, TRUST_PROXY: 'true' }),
    (instances) => {
      it('shares the per-address message limit between the instances', async () => {
        const [a, b] = instances();
        const res = await a.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' } });
        const { chatId } = res.json() as { chatId: string };
        // The limit counts in 10-second windows: start well inside one.
        if (Date.now() % 10_000 > 6_000) await new Promise((r) => setTimeout(r, 10_050 - (Date.now() % 10_000)));
        // 10 sockets on each instance, all from one visitor address, 4 messages each: 80 tries.
        const sockets = await Promise.all(Array.from({ length: 20 }, (_, i) => chatClient((i % 2 ? b : a).url, undefined, '10.66.0.1')));
        try {
          const acks = await Promise.all(
            sockets.flatMap((s, i) => Array.from({ length: 4 }, (_, j) => request(s, 'sendMessage', { chatId, message: `m${i}.${j}` }))),
          );
          const accepted = acks.filter((x) => x.ok).length;
          expect(accepted).toBeLessThanOrEqual(30);
          expect(acks.filter((x) => !x.ok).every((x) => !x.ok && x.code === 'RATE_LIMITED')).toBe(true);
          const [{ n }] = (await a.deps.database.query<{ n: number }>(
            'select count(*)::int as n from chat_messages where conversation_id = $1',
            [chatId],
          )) as [{ n: number }];
          expect(n).toBe(accepted);
        } finally {
          for (const s of sockets) s.disconnect();
        }
      });
    },
  );
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
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: db.url,
          WEB_DIST_DIR: '/nonexistent',
          ADMIN_EMAILS: 'founder@example.com',
          ADMIN_STEP_UP: 'off',
          TEST_DB: '',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      procs.push(child);
      urls.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(ports.map((p) => waitForPort(p, 40_000)));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(
      procs.map((p) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : (p.once('exit', resolve), p.kill('SIGTERM'))))),
    );
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
      const { chatId } = (await (
        await fetch(`${urls[0]}/api/v1/chat/start`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"userId":"guest"}',
        })
      ).json()) as { chatId: string };
      const appeared = nextEvent<ChatSummary>(admin, 'chatSummary', (s) => s.chatId === chatId);
      await request(visitor, 'joinChat', chatId);
      await request(admin, 'joinChat', chatId);
      const atAdmin = nextEvent<ChatMessage>(admin, 'newMessage', (m) => m.sender === 'user');
      await request(visitor, 'sendMessage', { chatId, message: 'Hello from process A' });
      expect((await atAdmin).message).toBe('Hello from process A');
      expect((await appeared).lastMessage).toBe('Hello from process A');
      const atVisitor = nextEvent<ChatMessage>(visitor, 'newMessage', (m) => m.sender === 'admin');
      await request(admin, 'adminSendMessage', { chatId, message: 'Hello from process B' });
      expect((await atVisitor).message).toBe('Hello from process B');
    } finally {
      admin.disconnect();
      visitor.disconnect();
    }
  });
});
