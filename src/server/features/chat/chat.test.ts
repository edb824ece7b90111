import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { ChatMessage, ChatSummary } from '../../../contract/chat.ts';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, record, request } from '../../../../tests/helpers/chat-client.ts';
import { revokeSession } from '../auth/sessions.ts';
import { deleteAbandonedEmptyChats } from './conversations.ts';

let t: TestApp;
let base: string;
let adminToken: string;
const open: Socket[] = [];

beforeAll(async () => {
  // Behind a proxy: each test socket has its own visitor address unless a test shares one.
  t = await buildTestApp({ ADMIN_EMAILS: 'founder@example.com', TRUST_PROXY: 'true' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
  adminToken = (await loginAs(t, 'founder@example.com', 'admin')).token;
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => t.close());

let socketAddress = 0;
const client = async (token?: string, address = `10.9.${Math.floor(++socketAddress / 200)}.${socketAddress % 200}`) => {
  const s = await chatClient(base, token, address);
  open.push(s);
  return s;
};
let ip = 0;
const start = async (headers: Record<string, string> = {}) => {
  // Each chat from its own address: the start route is rate limited per IP.
  const remoteAddress = `10.1.${Math.floor(++ip / 200)}.${ip % 200}`;
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' }, headers, remoteAddress });
  expect(res.statusCode).toBe(200);
  return res.json().chatId as string;
};
const stored = (chatId: string) =>
  t.deps.database.query<{ sender: string; body: string }>(
    'select sender, body from chat_messages where conversation_id = $1 order by seq',
    [chatId],
  );
const outbox = (to: string) =>
  t.deps.database.query<{ subject: string; text_body: string; html_body: string }>(
    'select subject, text_body, html_body from mail_outbox where to_address = $1 order by created_at',
    [to],
  );
const waitUntil = async (check: () => Promise<boolean>, ms = 3000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met');
};

describe('contract', () => {
  it('lists the chat calls in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const path of ['/api/v1/chat/start', '/api/v1/chat/unread', '/api/v1/chat/chat/']) {
      expect(doc.paths[path]?.post?.summary, path).toBeTruthy();
    }
  });
});

describe('chat start', () => {
  it('returns an unguessable capability and ignores the userId in the body', async () => {
    const a = await start();
    const b = await start();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a).not.toBe(b);
    const rows = await t.deps.database.query<{ user_id: string | null }>('select user_id from chat_conversations where id = $1', [a]);
    expect(rows[0]!.user_id).toBeNull();
  });

  it('is rate limited per IP', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      codes.push((await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: {}, remoteAddress: '10.200.0.1' })).statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });
});

describe('POST / with JSON (spec §7: the guest chat test page starts a chat at the backend root)', () => {
  const post = (remoteAddress: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/', payload: payload as string, headers, remoteAddress });

  it('starts a chat exactly as chat/start does: a capability the socket joins, tied to a bearer token’s account', async () => {
    const res = await post('10.3.0.1', { userId: 'guest' });
    expect(res.statusCode).toBe(200);
    const { chatId } = res.json() as { chatId: string };
    expect(Object.keys(res.json())).toEqual(['chatId']);
    expect(chatId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const visitor = await client();
    expect(await request(visitor, 'joinChat', chatId)).toMatchObject({ ok: true, state: 'waiting' });
    expect(await request(visitor, 'sendMessage', { chatId, message: 'from the guest page' })).toMatchObject({ ok: true });

    const owner = await loginAs(t, 'root-poster@example.com');
    const owned = (await post('10.3.0.2', { userId: 'guest' }, owner.headers)).json().chatId as string;
    expect(await request(await client(), 'joinChat', owned)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await request(await client(owner.token), 'joinChat', owned)).toMatchObject({ ok: true });
  });

  it('spends the same per-address limit as chat/start: one counter for both paths', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res =
        i % 2
          ? await post('10.3.1.1', { userId: 'guest' })
          : await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' }, remoteAddress: '10.3.1.1' });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([...Array(10).fill(200), 429, 429]);
    expect((await post('10.3.1.1', { userId: 'guest' })).json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
  });

  it('validates the body as chat/start does', async () => {
    for (const [path, url] of [
      ['root', '/'],
      ['start', '/api/v1/chat/start'],
    ] as const) {
      const bad = await t.app.inject({ method: 'POST', url, payload: { userId: 42 }, remoteAddress: `10.3.2.${path.length}` });
      expect(bad.statusCode, path).toBe(400);
      const broken = await t.app.inject({
        method: 'POST',
        url,
        payload: '{"userId":',
        headers: { 'content-type': 'application/json' },
        remoteAddress: `10.3.3.${path.length}`,
      });
      expect(broken.statusCode, path).toBe(400);
      expect(broken.json()).toMatchObject({ success: false });
    }
  });

  it('leaves any other POST / as it was: the API’s JSON 404, not counted against the limit', async () => {
    const others = [
      { payload: 'userId=guest', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { payload: 'hello', headers: { 'content-type': 'text/plain' } },
      { payload: undefined, headers: {} },
      { payload: '{"userId":"guest"}', headers: { 'content-type': 'application/jsonp' } },
    ];
    for (let i = 0; i < 3; i++) {
      for (const o of others) {
        const res = await t.app.inject({ method: 'POST', url: '/', payload: o.payload, headers: o.headers, remoteAddress: '10.3.4.1' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'No such API route: POST /' });
      }
    }
    // Twelve refusals later the address still starts a chat.
    expect((await post('10.3.4.1', { userId: 'guest' }, { 'content-type': 'application/json; charset=utf-8' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths['/']?.post?.summary).toMatch(/guest chat/);
  });
});

describe('live chat between a visitor and the admin', () => {
  it('delivers both ways, stores before broadcasting and shows the chat in the console', async () => {
    const admin = await client(adminToken);
    const listed = await request(admin, 'getActiveChats');
    expect(listed.ok).toBe(true);
    const chatId = await start();

    const visitor = await client();
    const presence = nextEvent<{ online: boolean }>(visitor, 'adminPresence');
    expect(await request(visitor, 'joinChat', chatId)).toMatchObject({ ok: true });
    expect(await presence).toEqual({ online: true });

    const summary = nextEvent<ChatSummary>(admin, 'chatSummary', (s) => s.chatId === chatId && s.unread === 1);
    const echoed = nextEvent<ChatMessage>(visitor, 'newMessage');
    await request(visitor, 'sendMessage', { chatId, sender: 'user', message: '  Hello, how much?  ' });
    const msg = await echoed;
    expect(msg).toMatchObject({ chatId, sender: 'user', message: 'Hello, how much?' });
    expect((await summary).lastMessage).toBe('Hello, how much?');

    const history = nextEvent<ChatMessage[]>(admin, 'chatHistory');
    await request(admin, 'joinChat', chatId);
    await request(admin, 'getChatHistory', chatId);
    expect((await history).map((m) => m.message)).toEqual(['Hello, how much?']);

    // The message is in the database by the time anyone receives it.
    const atReceipt = new Promise<number>((resolve) => {
      visitor.once('newMessage', () => void stored(chatId).then((rows) => resolve(rows.length)));
    });
    await request(admin, 'adminSendMessage', { chatId, message: 'It is $899.' });
    expect(await atReceipt).toBe(2);
    expect(await stored(chatId)).toEqual([
      { sender: 'user', body: 'Hello, how much?' },
      { sender: 'admin', body: 'It is $899.' },
    ]);
  });

  it("dates each message when it was sent, not when its chat was opened (the founder's reply kept the chat's time)", async () => {
    const chatId = await start();
    // The chat was opened an hour ago; the messages are written now.
    await t.deps.database.query("update chat_conversations set created_at = now() - interval '1 hour' where id = $1", [chatId]);
    const admin = await client(adminToken);
    const visitor = await client();
    await request(visitor, 'joinChat', chatId);
    const sent = await request(visitor, 'sendMessage', { chatId, sender: 'user', message: 'Are you there?' });
    await request(admin, 'joinChat', chatId);
    const reply = await request(admin, 'adminSendMessage', { chatId, message: 'Yes, here.' });
    expect(reply.ok).toBe(true);
    for (const m of [sent.message, reply.message] as ChatMessage[]) {
      expect(Math.abs(Date.parse(m.createdAt) - Date.now()), `${m.message} is dated now`).toBeLessThan(60_000);
    }
    // The acknowledged time is the stored one: a reload shows the same.
    const history = await request(admin, 'getChatHistory', chatId);
    expect(history.ok && history.history?.map((m) => m.createdAt)).toEqual([
      (sent.message as ChatMessage).createdAt,
      (reply.message as ChatMessage).createdAt,
    ]);
    const active = await request(admin, 'getActiveChats');
    const listed = active.ok ? active.summaries?.find((s) => s.chatId === chatId) : undefined;
    expect(Date.parse(listed?.createdAt ?? ''), 'the summary keeps the time the chat was opened').toBeLessThan(Date.now() - 50 * 60_000);
  });

  it('reloads the history after a reconnect and reports unread replies to the launcher', async () => {
    const chatId = await start();
    const visitor = await client();
    await request(visitor, 'joinChat', chatId);
    await request(visitor, 'sendMessage', { chatId, message: 'first' });
    visitor.disconnect();
    const admin = await client(adminToken);
    await request(admin, 'adminSendMessage', { chatId, message: 'reply while away' });
    const unread = await t.app.inject({ method: 'POST', url: '/api/v1/chat/unread', payload: { chatId } });
    expect(unread.json()).toEqual({ unread: 1, state: 'open' });

    const again = await client();
    await request(again, 'joinChat', chatId);
    const ack = await request(again, 'getChatHistory', chatId);
    expect(ack.ok && ack.history?.map((m) => `${m.sender}:${m.message}`)).toEqual(['user:first', 'admin:reply while away']);
    const after = await t.app.inject({ method: 'POST', url: '/api/v1/chat/unread', payload: { chatId } });
    expect(after.json().unread).toBe(0);
  });
});

describe('empty chats', () => {
  it('lists a chat in the console only once it has a message, and deletes empty ones after a day', async () => {
    const admin = await client(adminToken);
    const empty = await start();
    const old = await start();
    const oldWithMessage = await start();
    const visitor = await client();
    await request(visitor, 'sendMessage', { chatId: oldWithMessage, message: 'kept' });
    const listed = await request(admin, 'getActiveChats');
    expect(listed.ok && listed.summaries?.map((s) => s.chatId)).toEqual(expect.not.arrayContaining([empty, old]));
    expect(listed.ok && listed.summaries?.map((s) => s.chatId)).toContain(oldWithMessage);

    await t.deps.database.query(`update chat_conversations set created_at = now() - interval '25 hours' where id = any($1)`, [
      [old, oldWithMessage],
    ]);
    expect(await deleteAbandonedEmptyChats(t.deps.database)).toBe(1);
    const left = await t.deps.database.query<{ id: string }>('select id from chat_conversations where id = any($1)', [
      [empty, old, oldWithMessage],
    ]);
    expect(left.map((r) => r.id).sort()).toEqual([empty, oldWithMessage].sort());
    // chat/start keeps its contract: the id it gave still works until then.
    expect(await request(visitor, 'joinChat', empty)).toMatchObject({ ok: true });
  });
});

describe('messages while no admin is online', () => {
  // Behaviour, not the number of SQL statements (how many queries a message costs is the benchmark's
  // business, bench/): every message is stored in order and the founder is told once.
  it('stores each visitor message in order and tells the founder once', async () => {
    const chatId = await start();
    const visitor = await client();
    await request(visitor, 'joinChat', chatId);
    const before = (await outbox('founder@example.com')).length;
    for (let i = 0; i < 5; i++) expect(await request(visitor, 'sendMessage', { chatId, message: `m${i}` })).toMatchObject({ ok: true });
    await waitUntil(async () => (await outbox('founder@example.com')).some((m) => m.text_body.includes('m0')));
    const history = await request(visitor, 'getChatHistory', chatId);
    expect(history.ok && history.history?.filter((m) => m.sender === 'user').map((m) => m.message)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect((await outbox('founder@example.com')).length - before).toBe(1);
  });
});

describe('attacks', () => {
  it('refuses joining, reading or writing a chat with a wrong or guessed id', async () => {
    const real = await start();
    const visitor = await client();
    const histories = record(visitor, 'chatHistory');
    const guessed = real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A');
    for (const id of [guessed, 'x'.repeat(32)]) {
      expect(await request(visitor, 'joinChat', id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
      expect(await request(visitor, 'getChatHistory', id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
      expect(await request(visitor, 'sendMessage', { chatId: id, message: 'hi' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
      expect(await request(visitor, 'closeChat', id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    }
    for (const bad of ['1', '../../etc', { $ne: null }, null, 'a'.repeat(5000)]) {
      expect(await request(visitor, 'joinChat', bad)).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    }
    expect(histories).toEqual([]);
  });

  it('reports errors as chatError events to clients that send no acknowledgement', async () => {
    const visitor = await client();
    const error = nextEvent<{ event: string; code: string }>(visitor, 'chatError');
    visitor.emit('joinChat', 'y'.repeat(32));
    expect(await error).toMatchObject({ event: 'joinChat', code: 'NOT_FOUND' });
  });

  it('keeps a signed-in customer’s chat to their account', async () => {
    const owner = await loginAs(t, 'owner@example.com');
    const other = await loginAs(t, 'other@example.com');
    const chatId = await start(owner.headers);
    expect(await request(await client(), 'joinChat', chatId)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await request(await client(other.token), 'joinChat', chatId)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await request(await client(owner.token), 'joinChat', chatId)).toMatchObject({ ok: true });
    const unread = await t.app.inject({ method: 'POST', url: '/api/v1/chat/unread', payload: { chatId } });
    expect(unread.statusCode).toBe(404);
  });

  it('stores a visitor’s message as the visitor even when the payload says admin', async () => {
    const chatId = await start();
    const visitor = await client();
    const ack = await request(visitor, 'sendMessage', { chatId, sender: 'admin', message: 'I am the admin' });
    expect(ack).toMatchObject({ ok: true, message: { sender: 'user' } });
    expect(await stored(chatId)).toEqual([{ sender: 'user', body: 'I am the admin' }]);
  });

  it('refuses admin events from visitors, customers and dead tokens', async () => {
    const chatId = await start();
    const customer = await loginAs(t, 'customer@example.com');
    for (const s of [await client(), await client(customer.token), await client('not-a-real-token')]) {
      const lists = record(s, 'activeChats');
      expect(await request(s, 'getActiveChats')).toMatchObject({ ok: false, code: 'FORBIDDEN' });
      expect(await request(s, 'adminSendMessage', { chatId, message: 'fake admin' })).toMatchObject({ ok: false, code: 'FORBIDDEN' });
      expect(lists).toEqual([]);
    }
    expect(await stored(chatId)).toEqual([]);
  });

  it('stops admin rights as soon as the admin session is revoked', async () => {
    const session = await loginAs(t, 'founder@example.com', 'admin');
    const admin = await client(session.token);
    expect(await request(admin, 'getActiveChats')).toMatchObject({ ok: true });
    const [row] = await t.deps.database.query<{ id: string }>('select id from sessions order by created_at desc limit 1');
    await revokeSession(t.deps.db, row!.id);
    expect(await request(admin, 'getActiveChats')).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });

  it('disconnects the sockets of a signed-out session, and every session after logoutAll', async () => {
    const chatId = await start();
    const customer = await loginAs(t, 'leaver@example.com');
    const socket = await client(customer.token);
    await request(socket, 'joinChat', chatId).catch(() => undefined);
    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: customer.headers })).statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');

    const [one, two] = [await loginAs(t, 'leaver@example.com'), await loginAs(t, 'leaver@example.com')];
    const sockets = [await client(one.token), await client(two.token)];
    const visitor = await client();
    const allGone = Promise.all(sockets.map((s) => new Promise((resolve) => s.once('disconnect', resolve))));
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logoutAll', headers: one.headers })).statusCode).toBe(200);
    await allGone;
    expect(visitor.connected).toBe(true);
  });

  it('refuses empty, whitespace-only and 10,000-character messages', async () => {
    const chatId = await start();
    const visitor = await client();
    for (const message of ['', '   \n\t ', 'x'.repeat(10_000), 42, undefined]) {
      expect(await request(visitor, 'sendMessage', { chatId, message })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    }
    expect(await request(visitor, 'sendMessage', { chatId, message: 'x'.repeat(2000) })).toMatchObject({ ok: true });
    expect((await stored(chatId)).length).toBe(1);
    expect(visitor.connected).toBe(true);
  });

  it('rate limits a flood and stays usable afterwards', async () => {
    const chatId = await start();
    const visitor = await client();
    const acks = await Promise.all(Array.from({ length: 30 }, (_, i) => request(visitor, 'sendMessage', { chatId, message: `spam ${i}` })));
    const limited = acks.filter((a) => !a.ok && a.code === 'RATE_LIMITED').length;
    expect(limited).toBeGreaterThanOrEqual(20);
    expect((await stored(chatId)).length).toBe(30 - limited);
    await new Promise((r) => setTimeout(r, 1200));
    expect(visitor.connected).toBe(true);
    expect(await request(visitor, 'sendMessage', { chatId, message: 'calm now' })).toMatchObject({ ok: true });
  });

  it('keeps HTML as text: stored and sent as typed, escaped in e-mails', async () => {
    const chatId = await start();
    const visitor = await client();
    await request(visitor, 'setContactEmail', { chatId, email: 'Visitor@Example.com' });
    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const ack = await request(visitor, 'sendMessage', { chatId, message: evil });
    expect(ack).toMatchObject({ ok: true, message: { message: evil } });
    visitor.disconnect();
    const admin = await client(adminToken);
    await request(admin, 'adminSendMessage', { chatId, message: `Re: ${evil}` });
    await waitUntil(async () => (await outbox('visitor@example.com')).length > 0);
    const [mail] = await outbox('visitor@example.com');
    expect(mail!.html_body).not.toContain('<script>');
    expect(mail!.html_body).toContain('&lt;script&gt;');
  });

  it('closes a chat: no more messages, gone from the console', async () => {
    const chatId = await start();
    const visitor = await client();
    await request(visitor, 'joinChat', chatId);
    await request(visitor, 'sendMessage', { chatId, message: 'bye' });
    const closed = nextEvent<{ chatId: string }>(visitor, 'chatClosed');
    expect(await request(visitor, 'closeChat', chatId)).toMatchObject({ ok: true });
    expect(await closed).toEqual({ chatId });
    expect(await request(visitor, 'sendMessage', { chatId, message: 'again' })).toMatchObject({ ok: false, code: 'CONFLICT' });
    const admin = await client(adminToken);
    const ack = await request(admin, 'getActiveChats');
    expect(ack.ok && ack.summaries?.some((s) => s.chatId === chatId)).toBe(false);
  });

  it('reports a closed chat as closed to every joinChat, on the socket that closed it too', async () => {
    const chatId = await start();
    const visitor = await client();
    expect(await request(visitor, 'joinChat', chatId)).toMatchObject({ ok: true, state: 'waiting' });
    await request(visitor, 'sendMessage', { chatId, message: 'hello' });
    // The founder's reply opens it; the visitor's socket sees the change, not what it read first.
    const admin = await client(adminToken);
    await request(admin, 'adminSendMessage', { chatId, message: 'hi there' });
    expect(await request(visitor, 'joinChat', chatId)).toMatchObject({ ok: true, state: 'open' });

    expect(await request(visitor, 'closeChat', chatId)).toMatchObject({ ok: true });
    expect(await request(visitor, 'sendMessage', { chatId, message: 'again' })).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await request(visitor, 'joinChat', chatId)).toMatchObject({ ok: true, state: 'closed' });
    expect(await request(await client(), 'joinChat', chatId)).toMatchObject({ ok: true, state: 'closed' });
    expect(await request(admin, 'joinChat', chatId)).toMatchObject({ ok: true, state: 'closed' });
    const unread = await t.app.inject({ method: 'POST', url: '/api/v1/chat/unread', payload: { chatId } });
    expect(unread.json()).toMatchObject({ state: 'closed' });

    // Closed by the founder while the visitor's socket holds the chat: the same.
    const other = await start();
    const second = await client();
    expect(await request(second, 'joinChat', other)).toMatchObject({ ok: true, state: 'waiting' });
    await request(second, 'sendMessage', { chatId: other, message: 'anyone?' });
    expect(await request(admin, 'closeChat', other)).toMatchObject({ ok: true });
    expect(await request(second, 'joinChat', other)).toMatchObject({ ok: true, state: 'closed' });
  });
});

describe('message flood from one address', () => {
  it('limits messages per visitor address across its sockets (20 sockets cannot store 160 messages)', async () => {
    const chatId = await start();
    const sockets = await Promise.all(Array.from({ length: 20 }, () => client(undefined, '10.78.0.1')));
    const acks = await Promise.all(
      sockets.flatMap((s, i) => Array.from({ length: 8 }, (_, j) => request(s, 'sendMessage', { chatId, message: `flood ${i}.${j}` }))),
    );
    const stored_ = (await stored(chatId)).length;
    expect(stored_).toBe(acks.filter((a) => a.ok).length);
    expect(stored_).toBeLessThanOrEqual(30);
    expect(acks.filter((a) => !a.ok).every((a) => !a.ok && a.code === 'RATE_LIMITED')).toBe(true);
    // Another address is not affected.
    expect(await request(await client(undefined, '10.78.0.2'), 'sendMessage', { chatId, message: 'other visitor' })).toMatchObject({
      ok: true,
    });
  });

  it('lets no 10-second span hold more than 30 messages from one address, across the old window boundary', async () => {
    const chatId = await start();
    const sockets = await Promise.all(Array.from({ length: 20 }, () => client(undefined, '10.79.0.1')));
    const burst = (round: string) =>
      Promise.all(sockets.flatMap((s, i) => [0, 1].map((j) => request(s, 'sendMessage', { chatId, message: `${round} ${i}.${j}` }))));
    // The fixed window restarted at every multiple of 10 s: 40 messages just before one, 40 just after.
    let boundary = Math.ceil(Date.now() / 10_000) * 10_000;
    if (boundary - Date.now() < 1_500) boundary += 10_000;
    await new Promise((r) => setTimeout(r, boundary - 1_000 - Date.now()));
    const before = await burst('before');
    await new Promise((r) => setTimeout(r, Math.max(0, boundary + 300 - Date.now())));
    const after = await burst('after');

    const acks = [...before, ...after];
    const rows = await t.deps.database.query<{ created_at: Date }>(
      'select created_at from chat_messages where conversation_id = $1 order by created_at',
      [chatId],
    );
    expect(rows).toHaveLength(acks.filter((a) => a.ok).length);
    expect(acks.filter((a) => !a.ok).every((a) => !a.ok && a.code === 'RATE_LIMITED')).toBe(true);
    const times = rows.map((r) => new Date(r.created_at).getTime());
    const busiest = Math.max(...times.map((t0) => times.filter((t1) => t1 >= t0 && t1 < t0 + 10_000).length));
    expect(busiest).toBeLessThanOrEqual(30);
    expect(rows).toHaveLength(30);
  }, 40_000);
});

describe('offline mode', () => {
  it('e-mails the founder once when a chat starts with no admin connected, and the visitor a reply written while away', async () => {
    await t.deps.database.query('delete from mail_outbox');
    const chatId = await start();
    const visitor = await client();
    const presence = nextEvent<{ online: boolean }>(visitor, 'adminPresence');
    await request(visitor, 'joinChat', chatId);
    expect(await presence).toEqual({ online: false });
    await request(visitor, 'setContactEmail', { chatId, email: 'away@example.com' });
    await request(visitor, 'sendMessage', { chatId, message: 'Anyone there?' });
    await request(visitor, 'sendMessage', { chatId, message: 'Hello?' });
    await waitUntil(async () => (await outbox('founder@example.com')).length > 0);
    await new Promise((r) => setTimeout(r, 200));
    const ownerMails = await outbox('founder@example.com');
    expect(ownerMails).toHaveLength(1);
    expect(ownerMails[0]!.text_body).toContain('Anyone there?');

    // While the visitor is connected no mail is needed.
    const admin = await client(adminToken);
    await request(admin, 'adminSendMessage', { chatId, message: 'Here now' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await outbox('away@example.com')).toHaveLength(0);

    visitor.disconnect();
    await new Promise((r) => setTimeout(r, 100));
    await request(admin, 'adminSendMessage', { chatId, message: 'Your site can start Monday.' });
    await waitUntil(async () => (await outbox('away@example.com')).length === 1);
    const [mail] = await outbox('away@example.com');
    expect(mail!.text_body).toContain('Your site can start Monday.');
  });

  it('tells connected visitors when the admin comes online', async () => {
    const chatId = await start();
    const visitor = await client();
    await request(visitor, 'joinChat', chatId);
    const online = nextEvent<{ online: boolean }>(visitor, 'adminPresence', (p) => p.online);
    await client(adminToken);
    expect(await online).toEqual({ online: true });
  });
});
