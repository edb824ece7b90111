import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, request } from '../../../../tests/helpers/chat-client.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import { ORDER_SOCKET_EVENTS } from '../../../contract/order-messages.ts';
import { SUPPORT_SOCKET_EVENTS, type SupportMessageEvent } from '../../../contract/support.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import type { BuiltApp } from '../../app.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { getOverview } from '../admin/overview.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { NOTICE_TEMPLATE } from '../notices/send-notices.ts';
import { PNG } from '../../../../tests/fixtures/file-bytes.ts';
import { PLAN_OFFER_TEMPLATE } from './jobs.ts';
import { seedDeliveredOrder } from '../../../../tests/fixtures/delivered-orders.ts';
import { countPastResponseTarget, supportQueue } from './queue.ts';
import { supportOrder, supportOverview } from './requests.ts';
import type { SupportExtensionSource } from './support-window.ts';

// Support after delivery on the real app (decision 170) (PGlite, or PostgreSQL with TEST_DB=postgres): the window, the
// requests and their states, the founder's queue, the jobs with a moved clock, every attack of the
// issue's list that concerns requests, and the offer mail racing on two instances (decision 170).

type Who = { headers: Record<string, string>; token: string; user: { id: string; email: string } };
const OWNER = 'support.boss@example.com';
const DAY = 86_400_000;
let t: TestApp;
let filesDir: string;
let base: string;
let owner: Who;
let alice: Who;
let mallory: Who;
let aliceOrder: string;
let malloryOrder: string;
const sockets: Socket[] = [];

const supportUrl = (order: string) => `/api/v1/orders/${order}/support`;
const requestsUrl = (order: string) => `/api/v1/orders/${order}/support/requests`;
const post = (app: BuiltApp, who: Who, url: string, payload?: unknown) =>
  app.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });
const get = (app: BuiltApp, who: Who, url: string) => app.app.inject({ method: 'GET', url, headers: who.headers });
const later = (ms: number) => new Date(Date.now() + ms);
const count = async (app: BuiltApp, sql: string, params: unknown[] = []) =>
  (await app.deps.database.query<{ n: number }>(sql, params))[0]!.n;

/** Arranges time: the order was delivered `days` ago (only the delivery's date moves). */
async function deliveredDaysAgo(app: BuiltApp, orderId: string, days: number) {
  await app.deps.database.query(
    `update order_stages set completed_at = now() - make_interval(days => $2::int) where stage = $3 and order_id = (select ` +
      `id from orders where public_id = $1)`,
    [orderId, days, DELIVERY_STAGE],
  );
}

async function deliveredCustomer(app: BuiltApp, email: string) {
  const { customer, orderId } = await seedDeliveredOrder(app, email);
  return { customer: customer as Who, orderId };
}

async function openOne(who: Who, orderId: string, title = 'The contact form does not send', category = 'bug') {
  const res = await post(t, who, requestsUrl(orderId), { title, description: 'When I press Send\nnothing happens.', category });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().request as { id: string; state: string };
}

/** Runs `fn` with `source` as this app's support extension in place of the plan's, then puts the plan's back. */
async function withExtension(source: SupportExtensionSource, fn: () => Promise<void>) {
  const before = t.deps.queries.supportExtension;
  t.deps.queries.supportExtension = source;
  try {
    await fn();
  } finally {
    t.deps.queries.supportExtension = before;
  }
}

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'support-test-'));
  t = await buildTestApp({ FILES_DIR: filesDir, ADMIN_EMAILS: OWNER, ORDER_NOTIFY_DELAY_SECONDS: '300' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  owner = (await loginAs(t, OWNER, 'admin')) as Who;
  ({ customer: alice, orderId: aliceOrder } = await deliveredCustomer(t, 'support.alice@example.com'));
  ({ customer: mallory, orderId: malloryOrder } = await deliveredCustomer(t, 'support.mallory@example.com'));
}, 180_000);
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => {
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('the support window', () => {
  it('a delivered order is covered for SUPPORT_DAYS from "Website Delivery"', async () => {
    const res = await get(t, alice, supportUrl(aliceOrder));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, covered: true, plan: null });
    const [stage] = await t.deps.database.query<{ completed_at: Date }>(
      'select s.completed_at from order_stages s join orders o on o.id = s.order_id where o.public_id = $1 and s.stage = $2',
      [aliceOrder, DELIVERY_STAGE],
    );
    expect(Date.parse(body.supportUntil)).toBe(new Date(stage!.completed_at).getTime() + 365 * DAY);
  });

  it("another customer's order, an undelivered order and no order at all are the same 404", async () => {
    const undelivered = await seedPaidOrder(t, 'support.early@example.com');
    for (const [who, order] of [
      [mallory, aliceOrder],
      [undelivered.customer as Who, undelivered.orderId],
      [alice, 'ORD-NOPE'],
    ] as const) {
      const before = await count(t, 'select count(*)::int as n from support_requests');
      const list = await get(t, who, supportUrl(order));
      const create = await post(t, who, requestsUrl(order), { title: 'Hi', description: 'x', category: 'question' });
      expect([list.statusCode, create.statusCode], order).toEqual([404, 404]);
      expect(create.json()).toMatchObject({ success: false, code: 'NOT_FOUND', message: 'Order not found.' });
      expect(await count(t, 'select count(*)::int as n from support_requests')).toBe(before);
    }
    expect((await t.app.inject({ method: 'GET', url: supportUrl(aliceOrder) })).statusCode).toBe(401);
  });

  it('after the window a request is refused with 402 SUPPORT_ENDED and the plan offered; nothing is stored', async () => {
    const { customer, orderId } = await deliveredCustomer(t, 'support.late@example.com');
    await deliveredDaysAgo(t, orderId, 366);
    const overview = (await get(t, customer, supportUrl(orderId))).json();
    expect(overview.covered).toBe(false);
    expect(Date.parse(overview.supportUntil)).toBeLessThan(Date.now());
    const before = await count(t, 'select count(*)::int as n from support_requests');
    const res = await post(t, customer, requestsUrl(orderId), {
      title: 'Change the logo',
      description: 'New logo attached.',
      category: 'change',
    });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toMatchObject({ success: false, code: 'SUPPORT_ENDED' });
    expect(res.json().message).toMatch(/ended on \d{4}-\d{2}-\d{2}.*maintenance plan \(\$49\.00 a month\)/);
    expect(await count(t, 'select count(*)::int as n from support_requests')).toBe(before);
    expect(
      await count(
        t,
        "select count(*)::int as n from notices where kind = 'support_reply' and order_id = (select id from orders where public_id = $1)",
        [orderId],
      ),
    ).toBe(0);
  });

  it('a paid plan (through the extension hook) extends support to the end of its period', async () => {
    const { customer, orderId } = await deliveredCustomer(t, 'support.plan@example.com');
    await deliveredDaysAgo(t, orderId, 400);
    const [row] = await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orderId]);
    const periodEnd = later(20 * DAY);
    const source: SupportExtensionSource = async (_db, id) =>
      id === row!.id ? { plan: { state: 'active', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false }, coveredUntil: periodEnd } : null;
    await withExtension(source, async () => {
      const body = (await get(t, customer, supportUrl(orderId))).json();
      expect(body).toMatchObject({
        covered: true,
        supportUntil: periodEnd.toISOString(),
        plan: { state: 'active', currentPeriodEnd: periodEnd.toISOString(), cancelAtPeriodEnd: false },
      });
      expect(
        (
          await post(t, customer, requestsUrl(orderId), {
            title: 'Still covered',
            description: 'Thanks to the plan.',
            category: 'question',
          })
        ).statusCode,
      ).toBe(201);
    });
    expect((await post(t, customer, requestsUrl(orderId), { title: 'Plan gone', description: 'x', category: 'question' })).statusCode).toBe(
      402,
    );
  });

  it(
    "the customer's one-statement read answers as the step-by-step read, with the maintenance plan's own " +
      'rows (docs/decisions/291-signed-in-reads-one-statement.md)',
    async () => {
      const { customer, orderId } = await deliveredCustomer(t, 'support.sql-plan@example.com');
      const [row] = await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orderId]);
      await openOne(customer, orderId, 'First');
      await openOne(customer, orderId, 'Second', 'change');
      const addPlan = (state: string, createdAgoMs: number, paidUntil: Date | null, startsAt: Date | null, cancel = false) =>
        t.deps.database.query(
          `insert into maintenance_subscriptions (order_id, provider, provider_subscription_id, provider_plan_id, currency, amount, state,
                cancel_at_period_end, paid_until, starts_at, created_at)
         values ($1, 'test', $2, 'plan', 'USD', 49, $3, $4, $5, $6, now() - make_interval(secs => $7::float8))`,
          [row!.id, `sub_${state}_${createdAgoMs}`, state, cancel, paidUntil, startsAt, createdAgoMs / 1000],
        );
      const compare = async () => {
        const res = await get(t, customer, supportUrl(orderId));
        expect(res.statusCode, res.body).toBe(200);
        const now = new Date();
        const stepByStep = await supportOverview(
          t.deps,
          await supportOrder(t.deps.db, orderId, { side: 'customer', userId: customer.user.id }),
          now,
        );
        const { success, ...body } = res.json();
        expect(success).toBe(true);
        expect(body).toEqual(JSON.parse(JSON.stringify(stepByStep)));
        return body as { plan: unknown; supportUntil: string; requests: { title: string }[] };
      };
      expect((await compare()).requests.map((r) => r.title)).toEqual(['Second', 'First']);
      // A plan only created is no plan; then one waiting to start; then a paid one past the included year, cancelled at its end.
      await addPlan('created', 3000, null, null);
      expect((await compare()).plan).toBeNull();
      const setFirst = (state: string, paidUntil: Date | null, startsAt: Date | null) =>
        t.deps.database.query(`update maintenance_subscriptions set state = $2, paid_until = $3, starts_at = $4 where order_id = $1`, [
          row!.id,
          state,
          paidUntil,
          startsAt,
        ]);
      await setFirst('active', null, later(30 * DAY));
      expect((await compare()).plan).toMatchObject({ state: 'active', currentPeriodEnd: null });
      // One live plan per order: the first is over (it paid a shorter period) before the next one.
      await setFirst('completed', later(-2 * DAY), null);
      const paid = new Date(Date.now() + 500 * DAY + 123);
      await addPlan('cancelled', 1000, paid, later(-DAY), true);
      const last = await compare();
      expect(last).toMatchObject({
        supportUntil: paid.toISOString(),
        plan: { state: 'cancelled', currentPeriodEnd: paid.toISOString(), cancelAtPeriodEnd: true, startsAt: null },
      });
    },
  );

  it("My Orders and the back office's customer page carry each order's supportUntil (null before delivery, the plan's extension included)", async () => {
    const myOrders = async (who: Who) =>
      (await get(t, who, '/api/v1/order/getAllOrders/user')).json().orders as { order_id: string; supportUntil: string | null }[];
    const adminOrders = async (who: Who) => {
      const res = await get(t, owner, `/api/v1/admin/customers/${who.user.id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().orders as { id: string; supportUntil: string | null }[];
    };
    // Before delivery: null on both sides.
    const early = await seedPaidOrder(t, 'support.list.early@example.com');
    expect((await myOrders(early.customer as Who)).map((o) => [o.order_id, o.supportUntil])).toEqual([[early.orderId, null]]);
    expect((await adminOrders(early.customer as Who)).map((o) => [o.id, o.supportUntil])).toEqual([[early.orderId, null]]);

    // Delivered: the same end as the support window (delivery + SUPPORT_DAYS), on both sides.
    const { customer, orderId } = await deliveredCustomer(t, 'support.list@example.com');
    const window = (await get(t, customer, supportUrl(orderId))).json();
    expect(window.supportUntil).toEqual(expect.any(String));
    expect(await myOrders(customer)).toEqual([expect.objectContaining({ order_id: orderId, supportUntil: window.supportUntil })]);
    expect(await adminOrders(customer)).toEqual([expect.objectContaining({ id: orderId, supportUntil: window.supportUntil })]);

    // Ended: still the date (in the past), so the pages can say "Support ended on …".
    await deliveredDaysAgo(t, orderId, 400);
    const ended = (await myOrders(customer))[0]!.supportUntil!;
    expect(Date.parse(ended)).toBeLessThan(Date.now());
    expect((await adminOrders(customer))[0]!.supportUntil).toBe(ended);

    // A plan's extension (through the registered hook) moves it on both sides.
    const [row] = await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orderId]);
    const periodEnd = later(20 * DAY);
    const source: SupportExtensionSource = async (_db, id) =>
      id === row!.id ? { plan: { state: 'active', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false }, coveredUntil: periodEnd } : null;
    await withExtension(source, async () => {
      expect((await myOrders(customer))[0]!.supportUntil).toBe(periodEnd.toISOString());
      expect((await adminOrders(customer))[0]!.supportUntil).toBe(periodEnd.toISOString());
    });
  });
});

describe('requests', () => {
  it('the customer opens a request with a file of the order; both sides write; the list shows it', async () => {
    const form = fileForm('screen.png', PNG);
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${aliceOrder}/files`,
      headers: { ...alice.headers, ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const fileId = up.json().file.id as string;
    const res = await post(t, alice, requestsUrl(aliceOrder), {
      title: '  Hero image  ',
      description: 'Please swap it.\nThanks',
      category: 'change',
      fileIds: [fileId],
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().request;
    expect(created).toMatchObject({
      title: 'Hero image',
      description: 'Please swap it.\nThanks',
      category: 'change',
      state: 'open',
      fileIds: [fileId],
      resolvedAt: null,
    });

    // The file is in use now: it cannot be deleted.
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/orders/${aliceOrder}/files/${fileId}`, headers: alice.headers });
    expect(del.statusCode).toBe(409);

    const msgs = `${requestsUrl(aliceOrder)}/${created.id}/messages`;
    const answer = await post(t, owner, `/api/v1/admin/support/${created.id}/messages`, { text: 'On it.' });
    expect(answer.statusCode, answer.body).toBe(201);
    const reply = await post(t, alice, msgs, { text: 'Great,\nthank you' });
    expect(reply.statusCode, reply.body).toBe(201);
    const thread = (await get(t, alice, msgs)).json();
    expect(thread.request.id).toBe(created.id);
    expect(thread.messages.map((m: { sender: string; text: string }) => [m.sender, m.text])).toEqual([
      ['agency', 'On it.'],
      ['customer', 'Great,\nthank you'],
    ]);
    // Who wrote what (docs/decisions/271-message-author-names.md): the agency member's name with the
    // brand, "mine" only for the reader's own, never an address.
    const brand = t.deps.config.BRAND_NAME;
    expect(answer.json().message).toMatchObject({ authorName: `support.boss · ${brand}`, mine: true });
    expect(thread.messages.map((m: { authorName: string | null; mine: boolean }) => [m.authorName, m.mine])).toEqual([
      [`support.boss · ${brand}`, false],
      ['support.alice', true],
    ]);
    expect(JSON.stringify(thread)).not.toContain(OWNER);
    const ownerView = (await get(t, owner, `/api/v1/admin/support/${created.id}`)).json();
    expect(ownerView.messages.map((m: { mine: boolean }) => m.mine)).toEqual([true, false]);
    const list = (await get(t, alice, supportUrl(aliceOrder))).json().requests;
    expect(list[0]).toMatchObject({
      id: created.id,
      title: 'Hero image',
      category: 'change',
      state: 'open',
      lastMessageAt: reply.json().message.createdAt,
    });
    expect(Object.keys(list[0]).sort()).toEqual(['category', 'createdAt', 'id', 'lastMessageAt', 'state', 'title']);
  });

  it('a file of another order is refused (400) and nothing is stored', async () => {
    const form = fileForm('theirs.png', PNG);
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${malloryOrder}/files`,
      headers: { ...mallory.headers, ...form.headers },
      payload: form.payload,
    });
    const before = await count(t, 'select count(*)::int as n from support_requests');
    const res = await post(t, alice, requestsUrl(aliceOrder), {
      title: 'x',
      description: 'y',
      category: 'bug',
      fileIds: [up.json().file.id],
    });
    expect(res.statusCode).toBe(400);
    expect(await count(t, 'select count(*)::int as n from support_requests')).toBe(before);
  });

  it('10 KB titles, NUL bytes, bad categories and empty texts are 400, never 500, and store nothing', async () => {
    const before = await count(t, 'select count(*)::int as n from support_requests');
    const bodies = [
      { title: 'x'.repeat(10 * 1024), description: 'd', category: 'bug' },
      { title: 'A\u0000B', description: 'd', category: 'bug' },
      { title: 'Fine', description: 'nul \u0000 inside', category: 'bug' },
      { title: 'Two\nlines', description: 'd', category: 'bug' },
      { title: 'Fine', description: 'd', category: 'urgent' },
      { title: '   ', description: 'd', category: 'bug' },
      { title: 'Fine', description: 'd'.repeat(5001), category: 'bug' },
    ];
    for (const body of bodies) {
      const res = await post(t, alice, requestsUrl(aliceOrder), body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    }
    expect(await count(t, 'select count(*)::int as n from support_requests')).toBe(before);
    const r = await openOne(alice, aliceOrder);
    for (const text of ['a\u0000b', 'x'.repeat(5001), '']) {
      expect((await post(t, alice, `${requestsUrl(aliceOrder)}/${r.id}/messages`, { text })).statusCode).toBe(400);
      expect((await post(t, owner, `/api/v1/admin/support/${r.id}/messages`, { text })).statusCode).toBe(400);
    }
  });

  it("a request of another order is a 404 through the customer's routes", async () => {
    const r = await openOne(mallory, malloryOrder);
    expect((await get(t, alice, `${requestsUrl(aliceOrder)}/${r.id}/messages`)).statusCode).toBe(404);
    expect((await post(t, alice, `${requestsUrl(aliceOrder)}/${r.id}/messages`, { text: 'hi' })).statusCode).toBe(404);
    expect((await post(t, alice, `${requestsUrl(aliceOrder)}/${r.id}/reopen`)).statusCode).toBe(404);
    expect((await get(t, alice, `${requestsUrl(aliceOrder)}/not-a-uuid/messages`)).statusCode).toBe(400);
  });
});

describe('states', () => {
  it('the customer may only reopen a resolved request; any other change is refused', async () => {
    const r = await openOne(alice, aliceOrder, 'Typo on the about page', 'bug');
    const reopen = () => post(t, alice, `${requestsUrl(aliceOrder)}/${r.id}/reopen`);
    // Reopening what is not resolved: 409, nothing changes.
    expect((await reopen()).statusCode).toBe(409);
    // The founder's state route is not the customer's: 403, and no such route on the customer's side.
    for (const state of ['in_progress', 'resolved', 'closed']) {
      expect((await post(t, alice, `/api/v1/admin/support/${r.id}/state`, { state })).statusCode).toBe(403);
      expect((await post(t, alice, `${requestsUrl(aliceOrder)}/${r.id}/state`, { state })).statusCode).toBe(404);
    }
    const state = async () =>
      (await t.deps.database.query<{ state: string }>('select state from support_requests where id = $1', [r.id]))[0]!.state;
    expect(await state()).toBe('open');

    const set = (s: string) => post(t, owner, `/api/v1/admin/support/${r.id}/state`, { state: s });
    expect((await set('in_progress')).json().request.state).toBe('in_progress');
    expect((await set('in_progress')).statusCode).toBe(409);
    expect((await set('resolved')).json().request).toMatchObject({ state: 'resolved', resolvedAt: expect.any(String) });
    const again = await reopen();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().request).toMatchObject({ state: 'open', resolvedAt: null });
    expect((await set('closed')).statusCode).toBe(200);
    expect((await reopen()).statusCode).toBe(409);
    expect((await post(t, alice, `${requestsUrl(aliceOrder)}/${r.id}/messages`, { text: 'hello?' })).statusCode).toBe(409);
    expect(await state()).toBe('closed');
    expect((await set('bogus')).statusCode).toBe(400);
  });

  it("a customer's message on a resolved request reopens it", async () => {
    const r = await openOne(alice, aliceOrder, 'Footer link');
    await post(t, owner, `/api/v1/admin/support/${r.id}/state`, { state: 'resolved' });
    const res = await post(t, alice, `${requestsUrl(aliceOrder)}/${r.id}/messages`, { text: 'Still broken on mobile' });
    expect(res.json().request).toMatchObject({ state: 'open', resolvedAt: null });
  });

  it('a resolved request closes itself 7 days later (the job pass, with the clock), unless reopened', async () => {
    const a = await openOne(alice, aliceOrder, 'Will close');
    const b = await openOne(alice, aliceOrder, 'Will be reopened');
    for (const r of [a, b])
      expect((await post(t, owner, `/api/v1/admin/support/${r.id}/state`, { state: 'resolved' })).statusCode).toBe(200);
    const state = async (id: string) =>
      (await t.deps.database.query<{ state: string }>('select state from support_requests where id = $1', [id]))[0]!.state;
    await runJobs(t.deps, later(6 * DAY));
    expect([await state(a.id), await state(b.id)]).toEqual(['resolved', 'resolved']);
    expect((await post(t, alice, `${requestsUrl(aliceOrder)}/${b.id}/reopen`)).statusCode).toBe(200);
    const pass = await runJobs(t.deps, later(7 * DAY + 60_000));
    expect(pass.supportClosed).toBeGreaterThanOrEqual(1);
    expect([await state(a.id), await state(b.id)]).toEqual(['closed', 'open']);
    expect((await post(t, alice, `${requestsUrl(aliceOrder)}/${a.id}/reopen`)).statusCode).toBe(409);
  });
});

describe("the founder's queue", () => {
  it('lists the longest-waiting first, flags past the first-response target with the clock, and the overview counts them', async () => {
    const { customer, orderId } = await deliveredCustomer(t, 'support.queue@example.com');
    const first = await openOne(customer, orderId, 'Waiting longest');
    await new Promise((r) => setTimeout(r, 5));
    const second = await openOne(customer, orderId, 'Waiting less');
    const res = await get(t, owner, '/api/v1/admin/support?state=open&pageSize=100');
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().items.map((i: { id: string }) => i.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const item = res.json().items.find((i: { id: string }) => i.id === first.id);
    expect(item).toMatchObject({
      orderId,
      customerEmail: 'support.queue@example.com',
      pastResponseTarget: false,
      supportUntil: expect.any(String),
    });
    expect(res.json().responseTargetHours).toBe(24);

    const at = later(25 * 3_600_000);
    const flagged = (await supportQueue(t.deps, { state: 'open', page: 1, pageSize: 100 }, at)).items.filter((i) =>
      [first.id, second.id].includes(i.id),
    );
    expect(flagged.map((i) => i.pastResponseTarget)).toEqual([true, true]);
    expect(flagged[0]!.secondsSinceCustomerMessage).toBeGreaterThanOrEqual(25 * 3600 - 5);
    const pastBefore = await countPastResponseTarget(t.deps.db, 24, at);
    expect((await getOverview(t.deps.database, at, 24)).supportPastTarget).toBe(pastBefore);

    // The team answers the first: it no longer waits, is not flagged, and drops to the end of the waiting order.
    expect((await post(t, owner, `/api/v1/admin/support/${first.id}/messages`, { text: 'Looking now' })).statusCode).toBe(201);
    const after = (await supportQueue(t.deps, { state: 'open', page: 1, pageSize: 100 }, at)).items;
    expect(after.find((i) => i.id === first.id)).toMatchObject({ pastResponseTarget: false, waitingSince: null });
    expect(await countPastResponseTarget(t.deps.db, 24, at)).toBe(pastBefore - 1);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers })).json().supportPastTarget).toEqual(
      expect.any(Number),
    );

    // The founder's view of one request and of the order.
    const detail = (await get(t, owner, `/api/v1/admin/support/${first.id}`)).json();
    expect(detail.messages.map((m: { text: string }) => m.text)).toEqual(['Looking now']);
    expect(detail.item.orderId).toBe(orderId);
    const onOrder = (await get(t, owner, `/api/v1/admin/orders/${orderId}/support`)).json();
    expect(onOrder.requests.map((r: { id: string }) => r.id).sort()).toEqual([first.id, second.id].sort());
  });

  it('the founder routes are refused to customers and to visitors', async () => {
    expect((await get(t, alice, '/api/v1/admin/support')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/support' })).statusCode).toBe(401);
    expect((await get(t, owner, '/api/v1/admin/support?state=waiting')).statusCode).toBe(400);
  });

  it('state changes and answers are audited', async () => {
    const r = await openOne(alice, aliceOrder, 'Audit me');
    await post(t, owner, `/api/v1/admin/support/${r.id}/messages`, { text: 'secret words' });
    await post(t, owner, `/api/v1/admin/support/${r.id}/state`, { state: 'resolved' });
    const rows = await t.deps.database.query<{ action: string; before: unknown; after: Record<string, unknown> }>(
      "select action, before, after from admin_audit_log where entity = 'support_request' and entity_id = $1 order by created_at, id",
      [r.id],
    );
    expect(rows.map((x) => x.action)).toEqual(['support.message.send', 'support.request.state']);
    expect(JSON.stringify(rows[0]!.after)).not.toContain('secret');
    expect(rows[1]).toMatchObject({ before: { state: 'open' }, after: { state: 'resolved' } });
  });
});

describe('notices and live messages', () => {
  it('a request and messages become notices both ways, mailed in the batch; reading in the app first skips the mail', async () => {
    const { customer, orderId } = await deliveredCustomer(t, 'support.notice@example.com');
    const r = await openOne(customer, orderId, 'Notice me');
    await post(t, owner, `/api/v1/admin/support/${r.id}/messages`, { text: 'Answer one' });
    await runJobs(t.deps, later(301_000));
    const mails = (to: string) =>
      t.deps.db
        .select({ text: mailOutbox.textBody })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.template, NOTICE_TEMPLATE), eq(mailOutbox.toAddress, to)));
    const toCustomer = await mails('support.notice@example.com');
    expect(toCustomer).toHaveLength(1);
    expect(toCustomer[0]!.text).toContain('A new message from the team on the support request "Notice me"');
    expect(toCustomer[0]!.text).not.toContain('Answer one');
    expect((await mails(OWNER)).some((m) => m.text.includes('New support request (bug): "Notice me"'))).toBe(true);

    // Read in the app before the delay: no second mail.
    await post(t, owner, `/api/v1/admin/support/${r.id}/messages`, { text: 'Answer two' });
    expect((await get(t, customer, `${requestsUrl(orderId)}/${r.id}/messages`)).statusCode).toBe(200);
    await runJobs(t.deps, later(700_000));
    expect(await mails('support.notice@example.com')).toHaveLength(1);
  });

  it('a message reaches the sockets of the order room as supportMessage', async () => {
    const r = await openOne(alice, aliceOrder, 'Live');
    const s = await chatClient(base, alice.token);
    sockets.push(s);
    expect(await request(s, ORDER_SOCKET_EVENTS.joinOrder, { orderId: aliceOrder })).toEqual({ ok: true });
    const arrived = nextEvent<SupportMessageEvent>(s, SUPPORT_SOCKET_EVENTS.supportMessage, (m) => m.requestId === r.id);
    const res = await post(t, owner, `/api/v1/admin/support/${r.id}/messages`, { text: 'Live answer\nline two' });
    // The customer hears the founder's answer as someone else's, with the founder's name.
    expect(await arrived).toEqual({ ...res.json().message, mine: false, orderId: aliceOrder, requestId: r.id });
  });
});

describe('the plan offer 30 days before the end', () => {
  it('is mailed once, with the price, only inside the last 30 days', async () => {
    const soon = await deliveredCustomer(t, 'support.offer@example.com');
    const notYet = await deliveredCustomer(t, 'support.notyet@example.com');
    await deliveredDaysAgo(t, soon.orderId, 340);
    await deliveredDaysAgo(t, notYet.orderId, 300);
    const offers = (to: string) =>
      t.deps.db
        .select({ subject: mailOutbox.subject, text: mailOutbox.textBody })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.template, PLAN_OFFER_TEMPLATE), eq(mailOutbox.toAddress, to)));
    await runJobs(t.deps);
    await runJobs(t.deps);
    const sent = await offers('support.offer@example.com');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toMatch(/^Your website's support ends on [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(sent[0]!.text).toContain('$49.00 a month');
    expect(await offers('support.notyet@example.com')).toHaveLength(0);
    // 36 days later (335 days after its delivery) the other one is inside the last 30 days too.
    await runJobs(t.deps, later(36 * DAY));
    expect(await offers('support.notyet@example.com')).toHaveLength(1);
  });

  it('goes to a customer whose plan has lapsed, not to one a plan covers today', async () => {
    const lapsed = await deliveredCustomer(t, 'support.lapsed@example.com');
    const paying = await deliveredCustomer(t, 'support.paying@example.com');
    for (const o of [lapsed, paying]) await deliveredDaysAgo(t, o.orderId, 345);
    const ids = await t.deps.database.query<{ id: string; public_id: string }>(
      'select id, public_id from orders where public_id = any($1)',
      [[lapsed.orderId, paying.orderId]],
    );
    const idOf = (publicId: string) => ids.find((r) => r.public_id === publicId)!.id;
    const source: SupportExtensionSource = async (_db, id) => {
      if (id === idOf(lapsed.orderId))
        return { plan: { state: 'cancelled', currentPeriodEnd: later(-DAY), cancelAtPeriodEnd: true }, coveredUntil: later(-DAY) };
      if (id === idOf(paying.orderId))
        return { plan: { state: 'active', currentPeriodEnd: later(10 * DAY), cancelAtPeriodEnd: false }, coveredUntil: later(10 * DAY) };
      return null;
    };
    await withExtension(source, async () => {
      await runJobs(t.deps);
    });
    const sentTo = async (to: string) =>
      count(t, 'select count(*)::int as n from mail_outbox where template = $1 and to_address = $2', [PLAN_OFFER_TEMPLATE, to]);
    expect(await sentTo('support.lapsed@example.com')).toBe(1);
    expect(await sentTo('support.paying@example.com')).toBe(0);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)('two instances on one PostgreSQL', () => {
  const apps = instancesOnPostgres(2, { ADMIN_EMAILS: OWNER });

  it('the offer mail racing on both instances is sent once per order', async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const orders: { email: string; orderId: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const { customer, orderId } = await deliveredCustomer(a, `pg-offer-${i}@example.com`);
      await deliveredDaysAgo(a, orderId, 350);
      orders.push({ email: customer.user.email, orderId });
    }
    await Promise.all([runJobs(a.deps), runJobs(b.deps), runJobs(a.deps), runJobs(b.deps)]);
    for (const o of orders) {
      expect(
        await count(a, 'select count(*)::int as n from mail_outbox where template = $1 and to_address = $2', [
          PLAN_OFFER_TEMPLATE,
          o.email,
        ]),
        o.email,
      ).toBe(1);
    }
  });

  it('the auto-close racing on both instances closes each request once', async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const boss = (await loginAs(a, OWNER, 'admin')) as Who;
    const { customer, orderId } = await deliveredCustomer(a, 'pg-close@example.com');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(a, customer, requestsUrl(orderId), { title: `Close ${i}`, description: 'd', category: 'question' });
      ids.push(res.json().request.id);
      expect((await post(b, boss, `/api/v1/admin/support/${res.json().request.id}/state`, { state: 'resolved' })).statusCode).toBe(200);
    }
    const at = later(8 * DAY);
    const passes = await Promise.all([runJobs(a.deps, at), runJobs(b.deps, at)]);
    expect(passes.reduce((n, p) => n + (p.supportClosed ?? 0), 0)).toBe(3);
    expect(
      await count(
        a,
        "select count(*)::int as n from support_requests where state = 'closed' and order_id = (select id from orders where public_id = $1)",
        [orderId],
      ),
    ).toBe(3);
  });
});

describe('the OpenAPI document', () => {
  it("lists the customer's support routes publicly, the founder's only for admins", async () => {
    const paths = async (headers?: Record<string, string>) =>
      Object.keys(
        (await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers })).json().paths as Record<string, unknown>,
      ).filter((p) => p.includes('/support'));
    expect((await paths()).sort()).toEqual([
      '/api/v1/orders/{orderId}/support',
      '/api/v1/orders/{orderId}/support/requests',
      '/api/v1/orders/{orderId}/support/requests/{requestId}/messages',
      '/api/v1/orders/{orderId}/support/requests/{requestId}/rating',
      '/api/v1/orders/{orderId}/support/requests/{requestId}/reopen',
      '/api/v1/orders/{orderId}/support/requests/{requestId}/resolve',
    ]);
    expect(await paths(owner.headers)).toEqual(
      expect.arrayContaining(['/api/v1/admin/support', '/api/v1/admin/support/{requestId}/state', '/api/v1/admin/orders/{id}/support']),
    );
  });
});
