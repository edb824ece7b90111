import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../tests/helpers/test-app.ts';
import { loggerOptions } from '../app.ts';
import type { Config } from '../config.ts';
import { registerRateLimit } from './rate-limit.ts';
import { chatClient, request } from '../../../tests/helpers/chat-client.ts';
import { TEXT_POLICY_MESSAGE } from '../../contract/text-policy.ts';

// Issue 13 items 2, 3, 7, 10, 11, 12: each test here failed on main before its fix.

function captureLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, stream };
}

// The machine is shared: generous limits, no fixed sleeps.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
}, 300_000);
afterAll(() => t.close());

describe('string policy (item 2)', () => {
  it('refuses a NUL byte in a body with a 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contact/addContact',
      payload: { name: 'Nul\u0000Name', email: 'n@example.com', message: 'hi', phone_code: '+1', phone_number: '5551234', address: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(res.json().message).toContain('"name"');
    expect(res.json().message).toContain('NUL');
  });

  it('refuses a lone surrogate (400)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contact/addContact',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"AB\\ud800C","email":"s@example.com","message":"hi","phone_code":"+1","phone_number":"5551234","address":""}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('surrogate');
  });

  it('refuses NUL in path parameters and query strings', async () => {
    const customer = await loginAs(t, 'nul.path@example.com');
    const admin = await loginAs(t, 'nul.admin@example.com', 'admin');
    const inPath = await t.app.inject({ url: '/api/v1/status/getStatus/order/ORD%00X', headers: customer.headers });
    expect(inPath.statusCode).toBe(400);
    const inQuery = await t.app.inject({ url: '/api/v1/admin/orders?q=A%00B', headers: admin.headers });
    expect(inQuery.statusCode).toBe(400);
    const actor = await t.app.inject({ url: '/api/v1/admin/audit?actor=%00', headers: admin.headers });
    expect(actor.statusCode).toBe(400);
  });

  it('a path that is not valid UTF-8 (a lone surrogate) answers a 400 in the API error shape', async () => {
    const customer = await loginAs(t, 'bad.url@example.com');
    const res = await t.app.inject({ url: '/api/v1/status/getStatus/order/ORD%ED%A0%80X', headers: customer.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: expect.stringContaining('lone surrogate') });
  });

  it('strips other control characters instead of storing them', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contact/addContact',
      payload: { name: 'Bell\u0007 Name', email: 'bell@example.com', message: 'line one\nline\u001b two', phone_code: '+1', phone_number: '5551234', address: '' },
    });
    expect(res.statusCode).toBeLessThan(300);
    const [row] = await t.deps.database.query<{ name: string; message: string }>("select name, message from contact_messages where email = 'bell@example.com'");
    expect(row).toEqual({ name: 'Bell Name', message: 'line one\nline two' });
  });
});

describe('string policy on the chat socket (item 2)', () => {
  it('sendMessage with a NUL byte or a lone surrogate gets a clear BAD_REQUEST ack and nothing is stored', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const chatId = (await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' } })).json().chatId as string;
    const socket = await chatClient(base);
    const stored = async () => (await t.deps.database.query<{ body: string }>('select body from chat_messages where conversation_id = $1 order by created_at', [chatId])).map((r) => r.body);
    try {
      for (const message of ['hello\u0000world', 'bad \uD800 half']) {
        const ack = await request(socket, 'sendMessage', { chatId, message, sender: 'user' });
        expect(ack).toEqual({ ok: false, code: 'BAD_REQUEST', message: TEXT_POLICY_MESSAGE });
      }
      expect(await stored()).toEqual([]);
      // Other control characters are removed, the message is kept.
      expect(await request(socket, 'sendMessage', { chatId, message: 'bell\u0007 rings', sender: 'user' })).toMatchObject({ ok: true });
      expect(await stored()).toEqual(['bell rings']);
    } finally {
      socket.disconnect();
    }
  });
});

describe('rate limits count per operation (item 3)', () => {
  it('/chat/chat/ and /chat/chat share one counter', async () => {
    let answered = 0;
    for (const url of ['/api/v1/chat/chat/', '/api/v1/chat/chat']) {
      for (let i = 0; i < 20; i++) {
        const res = await t.app.inject({ method: 'POST', url, payload: { user_input: 'What does a website cost?' }, remoteAddress: '10.9.9.9' });
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode !== 429) answered++;
      }
    }
    expect(answered).toBe(20);
  });
});

describe('start-up warning without Redis (item 7)', () => {
  const config = (env: Partial<Config>) => ({ DATABASE_URL: undefined, REDIS_URL: undefined, ...env }) as Config;
  it('warns when DATABASE_URL is set without REDIS_URL, not otherwise', async () => {
    for (const [env, warned] of [
      [{ DATABASE_URL: 'postgres://db.example/app' }, true],
      [{}, false],
    ] as const) {
      const log = captureLog();
      const app = Fastify({ logger: { level: 'warn', stream: log.stream } });
      await registerRateLimit(app, config(env));
      await app.close();
      expect(log.lines.some((l) => l.includes('REDIS_URL is not set'))).toBe(warned);
    }
  });
});

describe('access log (item 10)', () => {
  it('logs the path and query names, never query values', async () => {
    const log = captureLog();
    const app = Fastify({ logger: { ...loggerOptions({ LOG_LEVEL: 'info' }), stream: log.stream } });
    app.get('/api/v1/auth/oidc/:provider/callback', async () => 'ok');
    await app.inject({ url: '/api/v1/auth/oidc/google/callback?code=SECRETCODE123&state=SECRETSTATE456&token=TOKEN789' });
    await app.close();
    const all = log.lines.join('');
    expect(all).toContain('/api/v1/auth/oidc/google/callback?code=[redacted]&state=[redacted]&token=[redacted]');
    expect(all).not.toMatch(/SECRETCODE123|SECRETSTATE456|TOKEN789/);
  });
});

describe('API docs (items 11, 12)', () => {
  it('/api/docs/static/index.html?anything ends on the UI instead of looping', async () => {
    let url = '/api/docs/static/index.html?anything';
    for (let hop = 0; hop < 5; hop++) {
      const res = await t.app.inject({ url });
      if (res.statusCode !== 302) {
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain('swagger');
        return;
      }
      expect(res.headers.location).not.toBe(url);
      url = String(res.headers.location);
    }
    throw new Error('redirect loop');
  });

  const adminPaths = (doc: { paths: Record<string, Record<string, { summary?: string }>> }) =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => path.startsWith('/api/v1/admin') || op.summary?.startsWith('Admin:'))
        .map(([method]) => `${method} ${path}`),
    );

  it('the public document lists no admin operation; admins get them all at the same URLs', async () => {
    const customer = await loginAs(t, 'docs.customer@example.com');
    const admin = await loginAs(t, 'docs.admin@example.com', 'admin');
    for (const url of ['/api/openapi.json', '/api/docs/json']) {
      const visitorDoc = (await t.app.inject({ url })).json();
      const customerDoc = (await t.app.inject({ url, headers: customer.headers })).json();
      const adminDoc = (await t.app.inject({ url, headers: admin.headers })).json();
      expect(adminPaths(visitorDoc)).toEqual([]);
      expect(adminPaths(customerDoc)).toEqual([]);
      expect(adminPaths(adminDoc).length).toBeGreaterThanOrEqual(25);
      expect(adminPaths(adminDoc)).toContain('post /api/v1/tracker/order/{id}/complete-next-stage');
      // The customer and visitor API stays public.
      expect(Object.keys(visitorDoc.paths)).toContain('/api/v1/payment/create-order');
      expect(JSON.stringify(visitorDoc)).not.toContain('internal-note');
    }
  });
});
