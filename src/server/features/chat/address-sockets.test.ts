import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { ChatMessage } from '../../../contract/chat.ts';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, request } from '../../../../tests/helpers/chat-client.ts';

// Decision 106: a client that opens a socket per re-render and never closes the
// old ones hit the per-address bound and had its newest socket — the one carrying the visitor's
// message — refused. At the bound the address's oldest socket in no chat is closed instead; a socket
// in a chat never is. The bound is CHAT_SOCKETS_MAX_PER_IP (10 here, so the default 20 is not it).
const MAX = 10;

let t: TestApp;
let base: string;
let adminToken: string;
const open: Socket[] = [];

beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: 'founder@example.com', TRUST_PROXY: 'true', CHAT_SOCKETS_MAX_PER_IP: String(MAX) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  adminToken = (await loginAs(t, 'founder@example.com', 'admin')).token;
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => t.close());

const client = async (address: string, token?: string) => {
  const s = await chatClient(base, token, address);
  open.push(s);
  return s;
};
const startChat = async (remoteAddress: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' }, remoteAddress })).json().chatId as string;
const disconnected = (s: Socket) => new Promise<string>((resolve) => s.once('disconnect', resolve));

describe('open sockets per visitor address', () => {
  it('admits 40 sockets from one address by closing its oldest idle ones; the socket in a chat keeps sending', async () => {
    const address = '10.55.0.1';
    const chatId = await startChat(address);
    const admin = await client('10.55.9.9', adminToken);
    await request(admin, 'joinChat', chatId);
    const delivered: ChatMessage[] = [];
    admin.on('newMessage', (m: ChatMessage) => delivered.push(m));

    const chatting = await client(address);
    const chatSocketLeft: string[] = [];
    chatting.on('disconnect', (reason) => chatSocketLeft.push(reason));
    expect(await request(chatting, 'joinChat', chatId)).toMatchObject({ ok: true });

    const idle: { socket: Socket; left: Promise<string> }[] = [];
    const sent: string[] = [];
    for (let i = 1; i < 40; i++) {
      const socket = await client(address); // rejects on "Too many connections"
      idle.push({ socket, left: disconnected(socket) });
      if (i % 5 === 0) {
        const text = `still here ${i}`;
        expect(await request(chatting, 'sendMessage', { chatId, message: text })).toMatchObject({ ok: true });
        sent.push(text);
      }
    }

    // The oldest idle sockets went, each told to stay away; the newest MAX - 1 and the chat remain.
    const evicted = idle.slice(0, 40 - MAX);
    expect(await Promise.all(evicted.map((e) => e.left))).toEqual(evicted.map(() => 'io server disconnect'));
    expect(idle.slice(40 - MAX).every((e) => e.socket.connected)).toBe(true);
    expect(chatting.connected).toBe(true);
    expect(chatSocketLeft).toEqual([]);

    // Every message stored and delivered, and the chat socket still answers.
    const last = nextEvent<ChatMessage>(admin, 'newMessage', (m) => m.message === 'the end');
    expect(await request(chatting, 'sendMessage', { chatId, message: 'the end' })).toMatchObject({ ok: true });
    await last;
    sent.push('the end');
    const rows = await t.deps.database.query<{ body: string }>('select body from chat_messages where conversation_id = $1 order by seq', [
      chatId,
    ]);
    expect(rows.map((r) => r.body)).toEqual(sent);
    expect(delivered.map((m) => m.message)).toEqual(sent);
  });

  it('never evicts a socket in a chat or an admin’s: with all of them busy the new one is refused, and admitted once one leaves', async () => {
    const address = '10.56.0.1';
    const chatId = await startChat(address);
    const admin = await client(address, adminToken);
    const inChat = [];
    for (let i = 1; i < MAX; i++) {
      const s = await client(address);
      // Joined, or written in without joining: both put the socket in the chat.
      expect(await request(s, i % 2 ? 'joinChat' : 'sendMessage', i % 2 ? chatId : { chatId, message: `hi ${i}` })).toMatchObject({
        ok: true,
      });
      inChat.push(s);
    }
    await expect(chatClient(base, undefined, address)).rejects.toThrow(/Too many connections/);
    expect(admin.connected && inChat.every((s) => s.connected)).toBe(true);
    // Another address is not affected.
    await client('10.56.0.2');

    const gone = disconnected(inChat[0]!);
    inChat[0]!.disconnect();
    await gone;
    await new Promise((r) => setTimeout(r, 100));
    await client(address);
  });
});
