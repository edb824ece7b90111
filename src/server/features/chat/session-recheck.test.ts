import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { ChatAck } from '../../../contract/chat.ts';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, request } from '../../../../tests/helpers/chat-client.ts';
import { SESSION_CACHE_MS } from '../auth/session-cache.ts';

// The part a broadcast cannot guarantee: a customer's socket stops working once its
// session has expired or was revoked even when the "disconnect its sockets" broadcast never
// arrived. The session is changed in the database directly here — no broadcast, no cache
// invalidation, exactly what a lost message looks like — and the socket must be refused within
// the session cache's lifetime, with nothing stored after that.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

let t: TestApp;
let base: string;
const open: Socket[] = [];

beforeAll(async () => {
  t = await buildTestApp({ TRUST_PROXY: 'true' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t.close());

let n = 0;
/** A signed-in customer with a chat of their own and a socket on it. */
async function customerInChat(email: string) {
  const customer = await loginAs(t, email);
  const remoteAddress = `10.5.0.${++n}`;
  const start = await t.app.inject({
    method: 'POST',
    url: '/api/v1/chat/start',
    payload: { userId: customer.user.id },
    headers: customer.headers,
    remoteAddress,
  });
  expect(start.statusCode).toBe(200);
  const chatId = start.json().chatId as string;
  const socket = await chatClient(base, customer.token, `10.6.0.${n}`);
  open.push(socket);
  expect(await request(socket, 'sendMessage', { chatId, message: 'first' })).toMatchObject({ ok: true });
  const [session] = await t.deps.database.query<{ id: string }>(
    'select s.id from sessions s join users u on u.id = s.user_id where u.email = $1',
    [email],
  );
  return { chatId, socket, sessionId: session!.id, token: customer.token };
}

const storedCount = async (chatId: string) =>
  (await t.deps.database.query<{ n: number }>('select count(*)::int as n from chat_messages where conversation_id = $1', [chatId]))[0]!.n;

/** Sends until the server refuses (the cached look-up may answer for up to SESSION_CACHE_MS). */
async function sendUntilRefused(socket: Socket, chatId: string): Promise<ChatAck> {
  const deadline = Date.now() + SESSION_CACHE_MS + 10_000;
  for (let i = 0; Date.now() < deadline; i++) {
    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    const ack = await request(socket, 'sendMessage', { chatId, message: `try ${i}` });
    if (!ack.ok && ack.code !== 'TOO_MANY_REQUESTS') {
      await gone;
      return ack;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the socket kept working past the session cache');
}

describe('a customer socket whose session ended without a broadcast', () => {
  it('is refused (UNAUTHORIZED, then disconnected) after its session is revoked or expires, and stores nothing more', async () => {
    const revoked = await customerInChat('recheck.revoked@example.com');
    const expired = await customerInChat('recheck.expired@example.com');
    await t.deps.database.query('update sessions set revoked_at = now() where id = $1', [revoked.sessionId]);
    await t.deps.database.query("update sessions set expires_at = now() - interval '1 second' where id = $1", [expired.sessionId]);

    for (const c of [revoked, expired]) {
      const ack = await sendUntilRefused(c.socket, c.chatId);
      expect(ack).toEqual({ ok: false, code: 'UNAUTHORIZED', message: 'Your session has ended. Please sign in again.' });
      expect(c.socket.connected).toBe(false);
      const before = await storedCount(c.chatId);
      // Reconnecting with the dead token makes a visitor, who cannot write to the customer's chat.
      const again = await chatClient(base, c.token, '10.6.1.1');
      open.push(again);
      expect(await request(again, 'sendMessage', { chatId: c.chatId, message: 'after' })).toMatchObject({ ok: false });
      expect(await storedCount(c.chatId)).toBe(before);
    }
  });

  it('a live session keeps working', async () => {
    const live = await customerInChat('recheck.live@example.com');
    expect(await request(live.socket, 'sendMessage', { chatId: live.chatId, message: 'second' })).toMatchObject({ ok: true });
    expect(live.socket.connected).toBe(true);
  });
});
