import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { AdminPresence, ChatSummary } from '../../../contract/chat.ts';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, request } from '../../../../tests/helpers/chat-client.ts';

// The console a founder can keep up with (docs/decisions/347-chat-availability-canned-replies-csat.md):
// the "available" / "away" switch, canned replies (owner edits, staff read), CSAT once per closed
// chat, and the first-response time in the console and its median on the overview.

let t: TestApp;
let base: string;
let owner: Awaited<ReturnType<typeof loginAs>>;
let staff: Awaited<ReturnType<typeof loginAs>>;
const open: Socket[] = [];

beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: 'console-owner@example.com' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  owner = await loginAs(t, 'console-owner@example.com', 'admin');
  staff = await loginAs(t, 'console-staff@example.com', 'staff');
}, 120_000);
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => t?.close());

const client = async (token?: string) => {
  const s = await chatClient(base, token);
  open.push(s);
  return s;
};
let ip = 0;
const start = async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: {}, remoteAddress: `10.44.0.${++ip}` });
  return res.json().chatId as string;
};
const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const ownerMails = () =>
  t.deps.database.query<{ subject: string }>(
    "select subject from mail_outbox where to_address = 'console-owner@example.com' and template = 'chat-new'",
  );

describe('canned replies', () => {
  it('the owner adds, edits and deletes them; staff read them; others are refused', async () => {
    const created = await api('POST', '/api/v1/admin/canned-replies', owner.headers, {
      title: 'Price',
      text: 'A website is ₹24,999 with a 20 % advance.',
      shortcut: '/Price',
    });
    expect(created.statusCode).toBe(201);
    const reply = created.json().reply;
    expect(reply).toMatchObject({ title: 'Price', shortcut: '/price' });

    expect(
      (await api('POST', '/api/v1/admin/canned-replies', owner.headers, { title: 'Again', text: 'x', shortcut: '/price' })).statusCode,
    ).toBe(409);
    expect(
      (await api('POST', '/api/v1/admin/canned-replies', owner.headers, { title: 'Bad', text: 'x', shortcut: 'price' })).statusCode,
    ).toBe(400);
    expect((await api('POST', '/api/v1/admin/canned-replies', owner.headers, { title: '', text: 'x', shortcut: '/x' })).statusCode).toBe(
      400,
    );

    const listed = await api('GET', '/api/v1/admin/canned-replies', staff.headers);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().replies.map((r: { shortcut: string }) => r.shortcut)).toContain('/price');

    for (const [method, url, body] of [
      ['POST', '/api/v1/admin/canned-replies', { title: 'Staff', text: 'x', shortcut: '/staff' }],
      ['PATCH', `/api/v1/admin/canned-replies/${reply.id}`, { title: 'Staff edit' }],
      ['DELETE', `/api/v1/admin/canned-replies/${reply.id}`, undefined],
    ] as const) {
      expect((await api(method, url, staff.headers, body)).statusCode, `${method} by staff`).toBe(403);
    }
    const customer = await loginAs(t, 'console-customer@example.com');
    expect((await api('GET', '/api/v1/admin/canned-replies', customer.headers)).statusCode).toBe(403);
    expect((await api('GET', '/api/v1/admin/canned-replies', {})).statusCode).toBe(401);

    const edited = await api('PATCH', `/api/v1/admin/canned-replies/${reply.id}`, owner.headers, { text: 'From ₹24,999.' });
    expect(edited.json().reply).toMatchObject({ title: 'Price', text: 'From ₹24,999.', shortcut: '/price' });
    expect((await api('PATCH', `/api/v1/admin/canned-replies/${reply.id}`, owner.headers, {})).statusCode).toBe(400);
    expect((await api('DELETE', `/api/v1/admin/canned-replies/${reply.id}`, owner.headers)).json()).toEqual({ success: true });
    expect((await api('DELETE', `/api/v1/admin/canned-replies/${reply.id}`, owner.headers)).statusCode).toBe(404);
    const audited = await t.deps.database.query<{ action: string }>(
      "select action from admin_audit_log where entity = 'canned_reply' order by created_at",
    );
    expect(audited.map((a) => a.action)).toEqual(['canned_reply.create', 'canned_reply.update', 'canned_reply.delete']);
  });
});

describe('availability', () => {
  it('"away" tells visitors when to expect a reply and e-mails the founder, though the console is open', async () => {
    const admin = await client(staff.token);
    await request(admin, 'getActiveChats');
    const chatId = await start();
    const visitor = await client();
    const present = nextEvent<AdminPresence>(visitor, 'adminPresence', (p) => p.online);
    await request(visitor, 'joinChat', chatId);
    await present;

    expect((await api('PUT', '/api/v1/admin/chat/availability', staff.headers, { available: 'no' })).statusCode).toBe(400);
    const away = nextEvent<AdminPresence>(visitor, 'adminPresence', (p) => !p.online);
    const res = await api('PUT', '/api/v1/admin/chat/availability', staff.headers, { available: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ available: false, withinHours: true });
    expect(Date.parse(res.json().expectReplyAt)).toBeGreaterThan(Date.now());
    expect(await away).toMatchObject({ online: false, reason: 'away', expectReplyAt: res.json().expectReplyAt });

    const before = (await ownerMails()).length;
    await request(visitor, 'sendMessage', { chatId, message: 'Anyone there?' });
    await expect.poll(async () => (await ownerMails()).length).toBe(before + 1);

    const back = nextEvent<AdminPresence>(visitor, 'adminPresence', (p) => p.online);
    const on = await api('PUT', '/api/v1/admin/chat/availability', staff.headers, { available: true });
    expect(on.json()).toMatchObject({ available: true, expectReplyAt: null });
    expect(await back).toEqual({ online: true });
    expect((await api('GET', '/api/v1/admin/chat/availability', staff.headers)).json()).toMatchObject({ available: true });
    const customer = await loginAs(t, 'console-customer2@example.com');
    expect((await api('PUT', '/api/v1/admin/chat/availability', customer.headers, { available: false })).statusCode).toBe(403);
  });
});

describe('CSAT and response times', () => {
  it('a closed chat is rated once; the console shows the first-response time and the overview its median', async () => {
    const admin = await client(owner.token);
    const chatId = await start();
    const visitor = await client();
    await request(visitor, 'joinChat', chatId);
    await request(visitor, 'sendMessage', { chatId, message: 'Hello?' });
    await request(admin, 'joinChat', chatId);
    // Open chats cannot be rated yet.
    expect(await request(visitor, 'rateChat', { chatId, score: 5 })).toMatchObject({ ok: false, code: 'CONFLICT' });
    await request(admin, 'adminSendMessage', { chatId, message: 'Hi! How can I help?' });
    const active = await request(admin, 'getActiveChats');
    const summary = active.ok ? active.summaries?.find((s: ChatSummary) => s.chatId === chatId) : undefined;
    expect(summary?.firstResponseSeconds).toBeGreaterThanOrEqual(0);

    await request(admin, 'closeChat', chatId);
    expect(await request(visitor, 'rateChat', { chatId, score: 9 })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(await request(admin, 'rateChat', { chatId, score: 1 })).toMatchObject({ ok: false });
    expect(await request(visitor, 'rateChat', { chatId, score: 4, comment: ' Quick and kind. ' })).toEqual({ ok: true });
    expect(await request(visitor, 'rateChat', { chatId, score: 1 })).toMatchObject({ ok: false, code: 'CONFLICT' });
    const [stored] = await t.deps.database.query<{ score: number; comment: string }>(
      'select score, comment from chat_ratings where chat_id = $1',
      [chatId],
    );
    expect(stored).toEqual({ score: 4, comment: 'Quick and kind.' });

    const ratings = await api('GET', '/api/v1/admin/ratings', staff.headers);
    expect(ratings.json().chat).toEqual({ average30Days: 4, count30Days: 1 });
    const overview = await api('GET', '/api/v1/admin/overview', owner.headers);
    expect(overview.json().chatFirstResponseMedianSeconds).toBeGreaterThanOrEqual(0);
  });
});
