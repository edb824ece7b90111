import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../tests/helpers/test-app.ts';
import { loggerOptions } from '../app.ts';
import type { Config } from '../config.ts';
import { registerRateLimit } from './rate-limit.ts';
import { chatClient, request } from '../../../tests/helpers/chat-client.ts';
import { TEXT_POLICY_MESSAGE } from '../../contract/text-policy.ts';

// Each test here failed on main before its fix.

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

  it('refuses every other C0 control and DEL in every field of the contact form, with nothing stored', async () => {
    // Each attempt from its own address: the contact form's per-address limit is not under test here.
    let n = 0;
    const from = () => `10.18.${Math.floor(++n / 250)}.${n % 250}`;
    const valid = {
      name: 'Ctl Name',
      email: 'ctl@example.com',
      message: 'line one\nline two',
      phone_code: '+1',
      phone_number: '5551234',
      address: 'Street 1\r\nTown',
    };
    for (const ch of ['\u0001', '\u001b', '\u007f']) {
      for (const field of Object.keys(valid) as (keyof typeof valid)[]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/contact/addContact',
          remoteAddress: from(),
          payload: { ...valid, [field]: `${valid[field]}${ch}[31m` },
        });
        expect(res.statusCode, `${field} with U+${ch.charCodeAt(0).toString(16)}`).toBe(400);
        expect(res.json()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect(res.json().message).toContain(`"${field}"`);
        expect(res.json().message).toMatch(/control character \(U\+00(01|1B|7F)\)/);
      }
    }
    const stored = await t.deps.database.query<{ n: number }>(
      "select count(*)::int as n from contact_messages where email = 'ctl@example.com'",
    );
    expect(stored[0]?.n).toBe(0);
    // Multi-line fields keep their line breaks and tabs; the same form without controls is stored.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contact/addContact',
      remoteAddress: from(),
      payload: { ...valid, message: 'a\tb\nc' },
    });
    expect(ok.statusCode).toBeLessThan(300);
    const [row] = await t.deps.database.query<{ message: string; address: string }>(
      "select message, address from contact_messages where email = 'ctl@example.com'",
    );
    expect(row).toEqual({ message: 'a\tb\nc', address: 'Street 1\r\nTown' });
  });

  it('refuses line breaks and tabs in single-line fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contact/addContact',
      remoteAddress: '10.18.99.1',
      payload: { name: 'Two\nLines', email: 'twolines@example.com', message: '', phone_code: '+1', phone_number: '5551234', address: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('"name" contains a line break or tab');
    const lead = await t.app.inject({
      method: 'POST',
      url: '/api/v1/alert/sendEmail',
      remoteAddress: '10.18.99.2',
      payload: { email: 'tab\t@example.com' },
    });
    expect(lead.statusCode).toBe(400);
  });

  it('refuses controls in the lead forms, the assistant input, query strings and paths', async () => {
    const admin = await loginAs(t, 'ctl.admin@example.com', 'admin');
    const customer = await loginAs(t, 'ctl.path@example.com');
    const attempts = [
      t.app.inject({ method: 'POST', url: '/api/v1/alert/sendEmail', payload: { email: 'lead\u001b@example.com' } }),
      t.app.inject({ method: 'POST', url: '/api/v1/alert/sendMessage', payload: { phone: '+1 555\u007f1234567' } }),
      t.app.inject({ method: 'POST', url: '/api/v1/chat/chat/', payload: { user_input: 'price?\u001b]0;pwned\u0007' } }),
      t.app.inject({ url: '/api/v1/admin/orders?q=A%1BB', headers: admin.headers }),
      t.app.inject({ url: '/api/v1/admin/orders?q=A%0AB', headers: admin.headers }),
      t.app.inject({ url: '/api/v1/status/getStatus/order/ORD%01X', headers: customer.headers }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/control character|line break/),
      });
    }
    const leads = await t.deps.database.query<{ n: number }>("select count(*)::int as n from leads where email like 'lead%'");
    expect(leads[0]?.n).toBe(0);
    // A question over several lines is still a question.
    const multi = await t.app.inject({
      method: 'POST',
      url: '/api/v1/chat/chat/',
      payload: { user_input: 'What does it cost?\nAnd how long?' },
    });
    expect(multi.statusCode).toBe(200);
  });
});

describe('string policy on the chat socket (item 2)', () => {
  it('sendMessage with a NUL byte or a lone surrogate gets a clear BAD_REQUEST ack and nothing is stored', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const chatId = (await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' } })).json()
      .chatId as string;
    const socket = await chatClient(base);
    const stored = async () =>
      (
        await t.deps.database.query<{ body: string }>('select body from chat_messages where conversation_id = $1 order by created_at', [
          chatId,
        ])
      ).map((r) => r.body);
    try {
      for (const message of ['hello\u0000world', 'bad \uD800 half']) {
        const ack = await request(socket, 'sendMessage', { chatId, message, sender: 'user' });
        expect(ack).toEqual({ ok: false, code: 'BAD_REQUEST', message: TEXT_POLICY_MESSAGE });
      }
      // Other controls and DEL are refused too; line breaks and tabs are text.
      for (const message of ['bell\u0007 rings', 'esc\u001b[2J', 'del\u007f']) {
        expect(await request(socket, 'sendMessage', { chatId, message, sender: 'user' })).toEqual({
          ok: false,
          code: 'BAD_REQUEST',
          message: TEXT_POLICY_MESSAGE,
        });
      }
      expect(await stored()).toEqual([]);
      expect(await request(socket, 'sendMessage', { chatId, message: 'two\nlines\tok', sender: 'user' })).toMatchObject({ ok: true });
      expect(await stored()).toEqual(['two\nlines\tok']);
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
        const res = await t.app.inject({
          method: 'POST',
          url,
          payload: { user_input: 'What does a website cost?' },
          remoteAddress: '10.9.9.9',
        });
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
