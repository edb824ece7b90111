import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, request } from '../../../../tests/helpers/chat-client.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { ORDER_SOCKET_EVENTS } from '../../../contract/order-messages.ts';
import { REVIEW_SOCKET_EVENTS, type ReviewChangedEvent } from '../../../contract/reviews.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { PNG } from '../../../../tests/fixtures/file-bytes.ts';

// A customer corrects or takes back their own pin until the agency answers it, and a decided round
// reaches the order's other tabs live (docs/decisions/219-review-and-tracker-polish.md), on the real
// app (PGlite, or PostgreSQL with TEST_DB=postgres).

type Who = Awaited<ReturnType<typeof loginAs>>;
let t: TestApp;
let filesDir: string;
let baseUrl: string;
let owner: Who;
let alice: Who;
let mallory: Who;
let aliceOrder: string;
let malloryOrder: string;
const sockets: Socket[] = [];

const base = (order: string) => `/api/v1/orders/${order}/reviews`;
const adminBase = (order: string) => `/api/v1/admin/orders/${order}/reviews`;
const send = (who: Who, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: who.headers, payload: payload as object });

async function openUiRound(order: string) {
  const form = fileForm('home.png', PNG);
  const up = await t.app.inject({
    method: 'POST',
    url: `/api/v1/admin/orders/${order}/files`,
    headers: { ...owner.headers, ...form.headers },
    payload: form.payload,
  });
  expect(up.statusCode, up.body).toBe(201);
  const fileId = up.json().file.id as string;
  const res = await send(owner, 'POST', adminBase(order), { kind: 'ui', title: 'Home', fileIds: [fileId] });
  expect(res.statusCode, res.body).toBe(201);
  return { reviewId: res.json().review.id as string, fileId };
}

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'pin-edits-test-'));
  t = await buildTestApp({ FILES_DIR: filesDir });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  owner = await loginAs(t, 'pins.boss@example.com', 'admin');
  ({ customer: alice, orderId: aliceOrder } = await seedPaidOrder(t, 'pins.alice@example.com'));
  ({ customer: mallory, orderId: malloryOrder } = await seedPaidOrder(t, 'pins.mallory@example.com'));
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('a customer edits or deletes their own pin until the agency answers it', () => {
  it('edits and deletes while unanswered; 409 once answered or decided; 404 for others; text rules as for a new pin', async () => {
    const { reviewId, fileId } = await openUiRound(aliceOrder);
    const pinUrl = `${base(aliceOrder)}/${reviewId}/comments`;
    const first = (await send(alice, 'POST', pinUrl, { fileId, x: 0.2, y: 0.3, text: 'Logo too small' })).json().comment as { id: string };
    const second = (await send(alice, 'POST', pinUrl, { fileId, x: 0.6, y: 0.6, text: 'Wrong photo' })).json().comment as { id: string };

    const edited = await send(alice, 'PATCH', `${pinUrl}/${first.id}`, { text: '  Logo a bit bigger, please ' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().comment).toMatchObject({ id: first.id, text: 'Logo a bit bigger, please', x: 0.2, y: 0.3, author: 'customer' });
    expect((await send(alice, 'PATCH', `${pinUrl}/${first.id}`, { text: '' })).statusCode).toBe(400);
    expect((await send(alice, 'PATCH', `${pinUrl}/${first.id}`, { text: 'x'.repeat(2001) })).statusCode).toBe(400);

    // Nobody else's: another customer (their own order's path or this one), a made-up id — the same 404.
    expect((await send(mallory, 'PATCH', `${pinUrl}/${first.id}`, { text: 'mine now' })).statusCode).toBe(404);
    expect((await send(mallory, 'DELETE', `${base(malloryOrder)}/${reviewId}/comments/${first.id}`)).statusCode).toBe(404);
    expect((await send(alice, 'DELETE', `${pinUrl}/not-a-uuid`)).statusCode).toBe(404);

    const deleted = await send(alice, 'DELETE', `${pinUrl}/${second.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await send(alice, 'DELETE', `${pinUrl}/${second.id}`)).statusCode).toBe(404);

    // The agency answers the first pin: it is on record now, for the customer and against the agency's own route alike.
    const answer = await send(owner, 'POST', `${adminBase(aliceOrder)}/${reviewId}/comments`, {
      fileId,
      x: 0.2,
      y: 0.3,
      text: 'Done in round 2',
      replyTo: first.id,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const late = await send(alice, 'PATCH', `${pinUrl}/${first.id}`, { text: 'Changed my mind' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/already answered this pin/);
    expect((await send(alice, 'DELETE', `${pinUrl}/${first.id}`)).statusCode).toBe(409);
    // The customer cannot edit the agency's answer either.
    expect((await send(alice, 'PATCH', `${pinUrl}/${answer.json().comment.id}`, { text: 'forged' })).statusCode).toBe(404);

    const list = (await t.app.inject({ method: 'GET', url: base(aliceOrder), headers: alice.headers })).json().reviews as {
      id: string;
      comments: { id: string; text: string }[];
    }[];
    expect(list.find((r) => r.id === reviewId)!.comments.map((c) => [c.id, c.text])).toEqual([
      [first.id, 'Logo a bit bigger, please'],
      [answer.json().comment.id, 'Done in round 2'],
    ]);

    // A third pin, then the round is decided: no more edits.
    const third = (await send(alice, 'POST', pinUrl, { fileId, x: 0.1, y: 0.9, text: 'Footer' })).json().comment as { id: string };
    expect((await send(alice, 'POST', `${base(aliceOrder)}/${reviewId}/decision`, { decision: 'request_changes' })).statusCode).toBe(200);
    const decided = await send(alice, 'PATCH', `${pinUrl}/${third.id}`, { text: 'Footer, darker' });
    expect(decided.statusCode).toBe(409);
    expect(decided.json().message).toMatch(/already decided/);
  });
});

describe('live rounds', () => {
  it("a decision reaches the order's room (another tab) as reviewChanged; other orders' rooms hear nothing", async () => {
    const { reviewId } = await openUiRound(malloryOrder);
    const tab = await chatClient(baseUrl, mallory.token);
    const stranger = await chatClient(baseUrl, alice.token);
    sockets.push(tab, stranger);
    expect(await request(tab, ORDER_SOCKET_EVENTS.joinOrder, { orderId: malloryOrder })).toEqual({ ok: true });
    expect(await request(stranger, ORDER_SOCKET_EVENTS.joinOrder, { orderId: aliceOrder })).toEqual({ ok: true });
    const heard: ReviewChangedEvent[] = [];
    stranger.on(REVIEW_SOCKET_EVENTS.reviewChanged, (e: ReviewChangedEvent) => heard.push(e));
    const arrived = nextEvent<ReviewChangedEvent>(tab, REVIEW_SOCKET_EVENTS.reviewChanged, (e) => e.reviewId === reviewId);
    const decided = await send(mallory, 'POST', `${base(malloryOrder)}/${reviewId}/decision`, { decision: 'approve' });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await arrived).toEqual({ orderId: malloryOrder, reviewId });
    expect(heard.filter((e) => e.reviewId === reviewId)).toEqual([]);
  });
});
