import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { activeSummaries, markRead, startConversation } from '../chat/conversations.ts';
import { storeMessage } from '../chat/message-writer.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loginAs(t, 'chief@example.com', 'admin');
});
afterAll(() => t.close());

describe('customers', () => {
  it('lists and searches customers with their live session counts', async () => {
    await loginAs(t, 'ann_x@example.com');
    await loginAs(t, 'ann_x@example.com');
    await loginAs(t, 'bob@example.com');
    const all = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/customers', headers: owner.headers })).json();
    expect(all.pageInfo.total).toBe(3);
    const ann = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/customers?q=ann_', headers: owner.headers })).json();
    expect(ann.items).toHaveLength(1);
    expect(ann.items[0]).toMatchObject({ email: 'ann_x@example.com', activeSessions: 2, role: 'customer' });
    // '%' and '_' are literal in a search, not wildcards.
    const none = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/customers?q=%25', headers: owner.headers })).json();
    expect(none.items).toHaveLength(0);
  });

  it('shows a customer and ends all their sessions, recorded in the audit log', async () => {
    const c = await loginAs(t, 'carol@example.com');
    await loginAs(t, 'carol@example.com');
    const detail = (await t.app.inject({ method: 'GET', url: `/api/v1/admin/customers/${c.user.id}`, headers: owner.headers })).json();
    expect(detail.customer).toMatchObject({ email: 'carol@example.com', phoneCode: '91' });
    expect(detail.sessions).toHaveLength(2);
    expect(detail.signInMethods).toContain('email');

    const res = await t.app.inject({ method: 'POST', url: `/api/v1/admin/customers/${c.user.id}/sessions/revoke`, headers: owner.headers });
    expect(res.json()).toEqual({ success: true, revoked: 2 });
    // The customer's token is dead at once.
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: c.headers });
    expect(after.statusCode).toBe(401);
    const audit = (
      await t.app.inject({ method: 'GET', url: `/api/v1/admin/audit?entity=user&entityId=${c.user.id}`, headers: owner.headers })
    ).json();
    expect(audit.items[0]).toMatchObject({
      action: 'customer.sessions.revoke',
      before: { activeSessions: 2 },
      after: { activeSessions: 0 },
    });
  });

  it('answers 404 for an unknown customer', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/customers/7d1f3a0e-0000-4000-8000-000000000000',
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(404);
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/customers/7d1f3a0e-0000-4000-8000-000000000000/sessions/revoke',
      headers: owner.headers,
    });
    expect(revoke.statusCode).toBe(404);
  });

  it('filters the audit log by actor and date, and refuses unknown filters', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const mine = (
      await t.app.inject({ method: 'GET', url: `/api/v1/admin/audit?actor=chief&from=${today}&to=${today}`, headers: owner.headers })
    ).json();
    expect(mine.items.length).toBeGreaterThan(0);
    const old = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/audit?to=2020-01-01', headers: owner.headers })).json();
    expect(old.items).toHaveLength(0);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/admin/audit?action=drop.tables', headers: owner.headers });
    expect(bad.statusCode).toBe(400);
    const badDate = await t.app.inject({ method: 'GET', url: '/api/v1/admin/audit?from=yesterday', headers: owner.headers });
    expect(badDate.statusCode).toBe(400);
  });
});

describe('customer detail with orders and chats, and the chat entry point', () => {
  it('shows the orders and conversations of a customer; counts open and unread chats', async () => {
    const seeded = await seedPaidOrder(t, 'dora@example.com');
    const chatId = await startConversation(t.deps.database, seeded.customer.user.id);
    await storeMessage(t.deps.database, chatId, 'user', 'Hello, when does design start?');
    await storeMessage(t.deps.database, chatId, 'user', 'And can I pay by UPI?');
    const guestChat = await startConversation(t.deps.database, null);
    await storeMessage(t.deps.database, guestChat, 'user', 'Hi');
    await markRead(t.deps.database, guestChat, 'agency');

    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/v1/admin/customers/${seeded.customer.user.id}`, headers: owner.headers })
    ).json();
    expect(detail.orders).toEqual([expect.objectContaining({ id: seeded.orderId, completedStages: 1, currency: expect.any(String) })]);
    expect(detail.conversations).toEqual([expect.objectContaining({ state: 'waiting', messages: 2 })]);

    // A chat opened on the team tab with nothing said is not waiting for anyone: the console does
    // not list it, and the counts do not count it (decision 126).
    await startConversation(t.deps.database, null);

    const summary = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/chats/summary', headers: owner.headers })).json();
    expect(summary).toEqual({ openChats: 2, unreadChats: 1, unreadMessages: 2 });
    const overview = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers })).json();
    expect(overview).toMatchObject({ openChats: 2, unreadChats: 1 });
    expect((await activeSummaries(t.deps.database)).length, 'the console lists what the overview counts').toBe(overview.openChats);
  });
});
