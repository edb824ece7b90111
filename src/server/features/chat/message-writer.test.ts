import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { ChatMessage } from '../../../contract/chat.ts';
import { buildTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, record, request } from '../../../../tests/helpers/chat-client.ts';
import { openDatabase } from '../../db/client.ts';
import { closeConversation, startConversation } from './conversations.ts';
import { createMessageWriter, storeMessages, type StoredMessage } from './message-writer.ts';

// Batched message writes (decision 110): stored before acknowledged or broadcast,
// nothing acknowledged that was not stored, a closed chat or a bad row refused alone.
let t: TestApp;
let base: string;
const open: Socket[] = [];

beforeAll(async () => {
  t = await buildTestApp({ TRUST_PROXY: 'true' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => t.close());

const stored = (chatId: string) =>
  t.deps.database.query<{ id: string; sender: string; body: string }>(
    'select id, sender, body from chat_messages where conversation_id = $1 order by seq',
    [chatId],
  );
const counters = async (chatId: string) =>
  (
    await t.deps.database.query<{ admin_unread: number; visitor_unread: number; last_message: string; state: string }>(
      'select admin_unread, visitor_unread, last_message, state from chat_conversations where id = $1',
      [chatId],
    )
  )[0]!;
let address = 0;
const client = async () => {
  const s = await chatClient(base, undefined, `10.77.${Math.floor(++address / 200)}.${address % 200}`);
  open.push(s);
  return s;
};

describe('storeMessages: one statement for many messages', () => {
  it('stores several chats at once, in order, with each chat’s counters and summary after the batch', async () => {
    const [a, b] = [await startConversation(t.deps.database, null), await startConversation(t.deps.database, null)];
    const out = await storeMessages(t.deps.database, [
      { chatId: a, sender: 'user', text: 'a1' },
      { chatId: b, sender: 'user', text: 'b1' },
      { chatId: a, sender: 'user', text: 'a2' },
      { chatId: a, sender: 'admin', text: 'a3 from the founder' },
    ]);
    expect(out.every((o) => !(o instanceof Error))).toBe(true);
    const ok = out as StoredMessage[];
    expect(ok.map((o) => o.message.message)).toEqual(['a1', 'b1', 'a2', 'a3 from the founder']);
    expect((await stored(a)).map((r) => r.body)).toEqual(['a1', 'a2', 'a3 from the founder']);
    expect((await stored(a)).map((r) => r.id)).toEqual([ok[0]!.message.id, ok[2]!.message.id, ok[3]!.message.id]);
    expect(await counters(a)).toEqual({ admin_unread: 2, visitor_unread: 1, last_message: 'a3 from the founder', state: 'open' });
    expect(await counters(b)).toEqual({ admin_unread: 1, visitor_unread: 0, last_message: 'b1', state: 'waiting' });
    // Every message of a chat carries the chat's summary after the whole batch.
    expect(ok[0]!.summary).toMatchObject({ chatId: a, unread: 2, lastMessage: 'a3 from the founder', state: 'open' });
    expect(ok[1]!.summary).toMatchObject({ chatId: b, unread: 1, lastMessage: 'b1', state: 'waiting' });
    // Each message has its own time, not the chat's.
    expect(new Date(ok[3]!.message.createdAt).getTime()).toBeGreaterThanOrEqual(new Date(ok[0]!.message.createdAt).getTime());
  });

  it('refuses the messages of a closed or unknown chat and stores the others', async () => {
    const [live, closed] = [await startConversation(t.deps.database, null), await startConversation(t.deps.database, null)];
    await closeConversation(t.deps.database, closed);
    const out = await storeMessages(t.deps.database, [
      { chatId: closed, sender: 'user', text: 'too late' },
      { chatId: live, sender: 'user', text: 'hello' },
      { chatId: 'z'.repeat(32), sender: 'user', text: 'nobody' },
    ]);
    expect(out[0]).toMatchObject({ code: 'CONFLICT' });
    expect(out[1]).toMatchObject({ message: { message: 'hello' } });
    expect(out[2]).toMatchObject({ code: 'CONFLICT' });
    expect(await stored(closed)).toEqual([]);
    expect((await stored(live)).map((r) => r.body)).toEqual(['hello']);
  });
});

describe('the message writer', () => {
  it('writes messages that arrive together in one statement, and resolves each only once it is stored', async () => {
    const chats = await Promise.all(Array.from({ length: 5 }, () => startConversation(t.deps.database, null)));
    const writer = createMessageWriter(t.deps.database, { lanes: 1 });
    const spy = vi.spyOn(t.deps.database, 'query');
    const seenStored: boolean[] = [];
    await Promise.all(
      chats.flatMap((chatId, i) =>
        [1, 2].map((n) =>
          writer.store({ chatId, sender: 'user', text: `m${i}.${n}` }).then(async ({ message }) => {
            // Persisted before anyone is told: the row is there when the promise resolves.
            seenStored.push((await stored(chatId)).some((r) => r.id === message.id));
          }),
        ),
      ),
    );
    const inserts = spy.mock.calls.filter(([sql]) => /insert into chat_messages/.test(String(sql)));
    expect(inserts).toHaveLength(1);
    expect(seenStored).toEqual(Array(10).fill(true));
    for (const [i, chatId] of chats.entries()) expect((await stored(chatId)).map((r) => r.body)).toEqual([`m${i}.1`, `m${i}.2`]);
  });

  it('keeps each chat’s messages in order across several lanes (PostgreSQL’s default)', async () => {
    const chats = await Promise.all(Array.from({ length: 8 }, () => startConversation(t.deps.database, null)));
    const writer = createMessageWriter(t.deps.database, { lanes: 4 });
    const spy = vi.spyOn(t.deps.database, 'query');
    await Promise.all(Array.from({ length: 40 }, (_, n) => writer.store({ chatId: chats[n % 8]!, sender: 'user', text: `n${n}` })));
    // At most one statement per lane for what arrived together.
    expect(spy.mock.calls.filter(([sql]) => /insert into chat_messages/.test(String(sql))).length).toBeLessThanOrEqual(4);
    for (const [i, chatId] of chats.entries())
      expect((await stored(chatId)).map((r) => r.body)).toEqual([0, 1, 2, 3, 4].map((k) => `n${i + 8 * k}`));
  });

  it('rejects every waiting message when the database fails, and stores none of them', async () => {
    // A PostgreSQL that is not there: every connection is refused.
    const broken = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', dataDir: 'memory' });
    const writer = createMessageWriter(broken);
    const chatId = await startConversation(t.deps.database, null);
    const results = await Promise.allSettled([1, 2, 3].map((n) => writer.store({ chatId, sender: 'user', text: `lost ${n}` })));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    // The writer keeps working for what comes next.
    await expect(writer.store({ chatId, sender: 'user', text: 'after' })).rejects.toThrow();
    expect(writer.queued).toBe(0);
    expect(await stored(chatId)).toEqual([]);
    await broken.close();
  });

  it('stores the rest of a batch when one row breaks a constraint', async () => {
    const chatId = await startConversation(t.deps.database, null);
    const writer = createMessageWriter(t.deps.database);
    // Longer than the table's check allows (the socket's validation stops it earlier; the writer must not rely on it).
    const results = await Promise.allSettled([
      writer.store({ chatId, sender: 'user', text: 'first' }),
      writer.store({ chatId, sender: 'user', text: 'x'.repeat(2001) }),
      writer.store({ chatId, sender: 'user', text: 'third' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await stored(chatId)).map((r) => r.body)).toEqual(['first', 'third']);
  });

  it('refuses new messages at once (UNAVAILABLE) while the oldest waiting one has waited too long', async () => {
    const chatId = await startConversation(t.deps.database, null);
    let clock = 0;
    const writer = createMessageWriter(t.deps.database, { maxWaitMs: 400, now: () => clock });
    const first = writer.store({ chatId, sender: 'user', text: 'queued' });
    clock = 300;
    const second = writer.store({ chatId, sender: 'user', text: 'still accepted' });
    clock = 401;
    await expect(writer.store({ chatId, sender: 'user', text: 'refused' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await Promise.all([first, second]);
    // Once the queue has drained, messages are accepted again.
    await writer.store({ chatId, sender: 'user', text: 'accepted again' });
    expect((await stored(chatId)).map((r) => r.body)).toEqual(['queued', 'still accepted', 'accepted again']);
  });
});

describe('sending over the socket', () => {
  it('broadcasts a message only after it is stored, and acknowledges every message of a burst', async () => {
    const sockets = await Promise.all([1, 2, 3, 4].map(() => client()));
    const chats = await Promise.all(sockets.map(() => startConversation(t.deps.database, null)));
    for (const [i, s] of sockets.entries()) expect(await request(s, 'joinChat', chats[i])).toMatchObject({ ok: true });
    const checks: Promise<boolean>[] = [];
    sockets.forEach((s, i) =>
      s.on('newMessage', (m: ChatMessage) => {
        checks.push(stored(chats[i]!).then((rows) => rows.some((r) => r.id === m.id)));
      }),
    );
    const acks = await Promise.all(
      sockets.flatMap((s, i) => [1, 2].map((n) => request(s, 'sendMessage', { chatId: chats[i], message: `burst ${i}.${n}` }))),
    );
    expect(acks.every((a) => a.ok)).toBe(true);
    await vi.waitFor(() => expect(checks).toHaveLength(8));
    expect(await Promise.all(checks)).toEqual(Array(8).fill(true));
  });

  it('answers an error to each sender when the database refuses the batch, broadcasts nothing, and works again after', async () => {
    const sockets = await Promise.all([1, 2, 3].map(() => client()));
    const chats = await Promise.all(sockets.map(() => startConversation(t.deps.database, null)));
    for (const [i, s] of sockets.entries()) expect(await request(s, 'joinChat', chats[i])).toMatchObject({ ok: true });
    const heard = sockets.map((s) => record<ChatMessage>(s, 'newMessage'));
    // A real failure of the database (as a full disk answers), not a stand-in for our code.
    await t.deps.database.execScript(`
      create function bench_refuse() returns trigger language plpgsql as $$ begin raise exception 'could not extend file' using errcode = '53100'; end $$;
      create trigger refuse_messages before insert on chat_messages for each row execute function bench_refuse();`);
    try {
      const acks = await Promise.all(sockets.map((s, i) => request(s, 'sendMessage', { chatId: chats[i], message: 'will fail' })));
      expect(acks).toEqual(Array(3).fill(expect.objectContaining({ ok: false, code: 'INTERNAL' })));
    } finally {
      await t.deps.database.execScript('drop trigger refuse_messages on chat_messages; drop function bench_refuse();');
    }
    for (const chatId of chats) expect(await stored(chatId)).toEqual([]);
    expect(heard.flat()).toEqual([]);
    expect(await request(sockets[0]!, 'sendMessage', { chatId: chats[0], message: 'again' })).toMatchObject({ ok: true });
  });
});
