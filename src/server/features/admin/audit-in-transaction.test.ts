import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, request } from '../../../../tests/helpers/chat-client.ts';
import { undoLastStage } from '../tracker/complete-next-stage.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';

// Every admin write is audited in the same transaction as the change. On main the
// tracker routes wrote no record, the back office's undo wrote it after the change (a failed
// record left an unaudited change), and an admin closing a chat was not audited.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
beforeAll(async () => {
  t = await buildTestApp();
  owner = await loginAs(t, 'audit.boss@example.com', 'admin');
});
afterAll(() => t.close());

const auditOf = (action: string, entityId: string) =>
  t.deps.database.query<{ actor_email: string; before: unknown; after: unknown }>(
    'select actor_email, before, after from admin_audit_log where action = $1 and entity_id = $2 order by created_at',
    [action, entityId],
  );
const stagesOf = async (orderId: string) =>
  Number(
    (
      await t.deps.database.query<{ n: number }>(
        'select count(*)::int as n from order_stages s join orders o on o.id = s.order_id where o.public_id = $1',
        [orderId],
      )
    )[0]!.n,
  );

describe('tracker routes /api/v1/tracker/order/*', () => {
  it('audits complete-next-stage (with its delivery link) and undo-last-stage', async () => {
    const { orderId } = await seedPaidOrder(t, 'audit.tracker@example.com');
    const done = await t.app.inject({
      method: 'POST',
      url: `/api/v1/tracker/order/${orderId}/complete-next-stage`,
      headers: owner.headers,
      payload: { note: 'Call booked', deliveryUrl: 'https://site.example.com' },
    });
    expect(done.statusCode).toBe(200);
    expect(await auditOf('order.stage.complete', orderId)).toEqual([
      {
        actor_email: 'audit.boss@example.com',
        before: { completedStages: 1 },
        after: { completedStages: 2, stage: expect.any(String), note: 'Call booked' },
      },
    ]);
    expect(await auditOf('order.delivery_link.set', orderId)).toEqual([
      { actor_email: 'audit.boss@example.com', before: { deliveryUrl: null }, after: { deliveryUrl: 'https://site.example.com' } },
    ]);
    const undone = await t.app.inject({ method: 'POST', url: `/api/v1/tracker/order/${orderId}/undo-last-stage`, headers: owner.headers });
    expect(undone.statusCode).toBe(200);
    expect(await auditOf('order.stage.undo', orderId)).toEqual([
      {
        actor_email: 'audit.boss@example.com',
        before: { completedStages: 2, stage: expect.any(String), note: 'Call booked' },
        after: { completedStages: 1, reason: null },
      },
    ]);
  });
});

describe('same transaction', () => {
  it('a stage change whose audit record cannot be written does not happen', async () => {
    const { orderId } = await seedPaidOrder(t, 'audit.atomic@example.com');
    const ok = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/stages/next`,
      headers: owner.headers,
      payload: { note: 'x' },
    });
    expect(ok.statusCode).toBe(200);
    expect(await stagesOf(orderId)).toBe(2);
    // An actor that does not exist: the audit insert fails on its foreign key.
    await expect(undoLastStage(t.deps, orderId, { actorUserId: randomUUID(), reason: 'r' })).rejects.toThrow();
    expect(await stagesOf(orderId)).toBe(2);
  });
});

describe('chat', () => {
  it('an admin closing a chat is audited', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const chatId = (await t.app.inject({ method: 'POST', url: '/api/v1/chat/start', payload: { userId: 'guest' } })).json()
      .chatId as string;
    const socket = await chatClient(base, owner.token);
    try {
      expect(await request(socket, 'closeChat', chatId)).toMatchObject({ ok: true });
    } finally {
      socket.disconnect();
    }
    expect(await auditOf('chat.close', chatId)).toEqual([
      { actor_email: 'audit.boss@example.com', before: { state: 'waiting' }, after: { state: 'closed' } },
    ]);
  });
});
