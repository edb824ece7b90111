import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../tests/helpers/test-app.ts';
import { orderMessages } from '../db/schema/order-messages.ts';
import { idempotencyKeys } from '../db/schema/idempotency.ts';
import { seedDeliveredOrder } from '../../../tests/fixtures/delivered-orders.ts';
import { runJobs } from '../features/jobs/run-jobs.ts';

// The Idempotency-Key of every create/transition POST (docs/decisions/210-idempotency-key.md), on the
// real app (PGlite, or PostgreSQL with TEST_DB=postgres): a double click or a retried request is
// done once and answered alike; the same key with another body is a 422.

type Who = Awaited<ReturnType<typeof loginAs>>;
const OWNER = 'idem.boss@example.com';
let t: TestApp;
let owner: Who;
let alice: Who;
let bob: Who;
let order: string;

const post = (who: Who, url: string, payload: object, key?: string) =>
  t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) }, payload });
const messagesOf = async (orderId: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/messages`, headers: alice.headers });
  return res.json().messages as { text: string }[];
};

beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: OWNER });
  owner = await loginAs(t, OWNER, 'admin');
  ({ customer: alice, orderId: order } = await seedDeliveredOrder(t, 'idem.alice@example.com'));
  bob = await loginAs(t, 'idem.bob@example.com');
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('Idempotency-Key', () => {
  it('a retried message with the same key is stored once and answered with the first answer', async () => {
    const url = `/api/v1/orders/${order}/messages`;
    const first = await post(alice, url, { text: 'Once only' }, 'msg-key-1');
    expect(first.statusCode, first.body).toBe(201);
    const again = await post(alice, url, { text: 'Once only' }, 'msg-key-1');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await messagesOf(order)).filter((m) => m.text === 'Once only')).toHaveLength(1);
  });

  it('a double click (two requests at once with one key) posts once; both get the same answer', async () => {
    const url = `/api/v1/orders/${order}/messages`;
    const [a, b] = await Promise.all([
      post(alice, url, { text: 'Double click' }, 'msg-key-2'),
      post(alice, url, { text: 'Double click' }, 'msg-key-2'),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().message.id).toBe(b.json().message.id);
    const stored = await t.deps.db.select().from(orderMessages).where(eq(orderMessages.text, 'Double click'));
    expect(stored).toHaveLength(1);
  });

  it('the same key with another body is a 422 and does nothing', async () => {
    const url = `/api/v1/orders/${order}/messages`;
    expect((await post(alice, url, { text: 'First body' }, 'msg-key-3')).statusCode).toBe(201);
    const other = await post(alice, url, { text: 'Second body' }, 'msg-key-3');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ success: false, code: 'UNPROCESSABLE' });
    expect((await messagesOf(order)).some((m) => m.text === 'Second body')).toBe(false);
  });

  it('keys are per account: another person using the same key is not answered with the first answer', async () => {
    const res = await post(bob, `/api/v1/orders/${order}/messages`, { text: 'Once only' }, 'msg-key-1');
    expect(res.statusCode).toBe(404);
  });

  it('without a key every POST is its own request (old clients keep working)', async () => {
    const url = `/api/v1/orders/${order}/messages`;
    await post(alice, url, { text: 'No key' });
    await post(alice, url, { text: 'No key' });
    expect((await messagesOf(order)).filter((m) => m.text === 'No key')).toHaveLength(2);
  });

  it('a key that is empty, too long or not printable is a 400 naming the header', async () => {
    const url = `/api/v1/orders/${order}/messages`;
    for (const key of ['x'.repeat(129), 'tab\there']) {
      const res = await post(alice, url, { text: 'Bad key' }, key);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().message).toContain('Idempotency-Key');
    }
    expect((await messagesOf(order)).some((m) => m.text === 'Bad key')).toBe(false);
  });

  it('a double "Mark in progress" moves the state once and both clicks see success, not a 409', async () => {
    const created = await post(alice, `/api/v1/orders/${order}/support/requests`, {
      title: 'Broken form',
      description: 'The contact form does not send.',
      category: 'bug',
    });
    expect(created.statusCode, created.body).toBe(201);
    const requestId = created.json().request.id as string;
    const url = `/api/v1/admin/support/${requestId}/state`;
    const [a, b] = await Promise.all([
      post(owner, url, { state: 'in_progress' }, 'state-1'),
      post(owner, url, { state: 'in_progress' }, 'state-1'),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().request.state).toBe('in_progress');
  });

  it('keys are forgotten after 24 h', async () => {
    const before = await t.deps.db.select().from(idempotencyKeys);
    expect(before.length).toBeGreaterThan(0);
    await runJobs(t.deps, new Date(Date.now() + 25 * 3600 * 1000));
    expect(await t.deps.db.select().from(idempotencyKeys)).toHaveLength(0);
  });
});
