import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { and, asc, eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, record, request } from '../../../../tests/helpers/chat-client.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import { ORDER_SOCKET_EVENTS, type OrderMessageEvent } from '../../../contract/order-messages.ts';
import type { BuiltApp } from '../../app.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { NOTICE_TEMPLATE } from '../notices/send-notices.ts';
import { PNG } from '../../../../tests/fixtures/file-bytes.ts';
import { revokeSession } from '../auth/sessions.ts';

// Order messages on the real app (decision 155) (PGlite, or PostgreSQL with TEST_DB=postgres): the thread, its
// attacks, live delivery over socket.io, unread counts, and the batched notice e-mail (decision 155).

type Who = { headers: Record<string, string>; token: string; user: { email: string } };
const OWNER = 'messages.boss@example.com';
let t: TestApp;
let filesDir: string;
let base: string;
let admin: Who;
let alice: Who;
let mallory: Who;
let aliceOrder: string;
let malloryOrder: string;
const sockets: Socket[] = [];

const url = (order: string) => `/api/v1/orders/${order}/messages`;
const adminUrl = (order: string) => `/api/v1/admin/orders/${order}/messages`;
const post = (who: Who, u: string, payload?: unknown) =>
  t.app.inject({ method: 'POST', url: u, headers: who.headers, payload: payload as object });
const get = (who: Who, u: string) => t.app.inject({ method: 'GET', url: u, headers: who.headers });
async function upload(who: Who, u: string, name = 'logo.png'): Promise<string> {
  const form = fileForm(name, PNG);
  const res = await t.app.inject({ method: 'POST', url: u, headers: { ...who.headers, ...form.headers }, payload: form.payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().file.id;
}
const noticeMails = async (app: BuiltApp, to?: string) =>
  app.deps.db
    .select({ to: mailOutbox.toAddress, subject: mailOutbox.subject, text: mailOutbox.textBody, html: mailOutbox.htmlBody })
    .from(mailOutbox)
    .where(to ? and(eq(mailOutbox.template, NOTICE_TEMPLATE), eq(mailOutbox.toAddress, to)) : eq(mailOutbox.template, NOTICE_TEMPLATE))
    .orderBy(asc(mailOutbox.createdAt));
const secondsLater = (s: number) => new Date(Date.now() + s * 1000);
const socketFor = async (who?: Who) => {
  const s = await chatClient(base, who?.token);
  sockets.push(s);
  return s;
};

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'messages-test-'));
  t = await buildTestApp({ FILES_DIR: filesDir, ADMIN_EMAILS: OWNER, ORDER_NOTIFY_DELAY_SECONDS: '300' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  admin = await loginAs(t, OWNER, 'admin');
  ({ customer: alice, orderId: aliceOrder } = await seedPaidOrder(t, 'messages.alice@example.com'));
  ({ customer: mallory, orderId: malloryOrder } = await seedPaidOrder(t, 'messages.mallory@example.com'));
}, 180_000);
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => {
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('the thread over HTTP', () => {
  it('both sides write and read one thread, with files of the order attached, oldest first', async () => {
    const logo = await upload(alice, `/api/v1/orders/${aliceOrder}/files`);
    const first = await post(alice, url(aliceOrder), { text: 'Hello!\nHere is our logo.', fileIds: [logo] });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().message).toMatchObject({ sender: 'customer', text: 'Hello!\nHere is our logo.', fileIds: [logo] });
    const reply = await post(admin, adminUrl(aliceOrder), { text: 'Thanks, got it.' });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().message).toMatchObject({ sender: 'agency', fileIds: [] });

    for (const [who, u] of [
      [alice, url(aliceOrder)],
      [admin, adminUrl(aliceOrder)],
    ] as const) {
      const res = await get(who, u);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().messages.map((m: { sender: string; text: string }) => `${m.sender}: ${m.text}`)).toEqual([
        'customer: Hello!\nHere is our logo.',
        'agency: Thanks, got it.',
      ]);
    }
    // The founder's message is audited, without its text.
    const [audit] = await t.deps.database.query<{ action: string; after: { length: number } }>(
      "select action, after from admin_audit_log where action = 'order.message.send'",
    );
    expect(audit!.after.length).toBe('Thanks, got it.'.length);
    expect(JSON.stringify(audit)).not.toContain('Thanks');
    // An attached file cannot be deleted any more.
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/orders/${aliceOrder}/files/${logo}`, headers: alice.headers });
    expect(del.statusCode, del.body).toBe(409);
  });

  it("another customer's order is a 404 on every route, and nothing of it leaks", async () => {
    await post(alice, url(aliceOrder), { text: 'Only for my agency' });
    const before = await t.deps.database.query<{ n: number }>('select count(*)::int as n from order_messages');
    for (const res of [
      await get(mallory, url(aliceOrder)),
      await post(mallory, url(aliceOrder), { text: 'Let me in' }),
      await post(mallory, `${url(aliceOrder)}/read`),
      await get(mallory, url('ORDNOSUCH1')),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Order not found.' });
    }
    expect(await t.deps.database.query('select count(*)::int as n from order_messages')).toEqual(before);
    // A customer on the founder's routes: refused by the admin guard.
    expect((await get(alice, adminUrl(aliceOrder))).statusCode).toBe(403);
    expect((await post(alice, adminUrl(aliceOrder), { text: 'x' })).statusCode).toBe(403);
    // Without a session.
    expect((await t.app.inject({ method: 'GET', url: url(aliceOrder) })).statusCode).toBe(401);
  });

  it('refuses a file of another order (400), 10 KB of text and NUL (400); HTML is kept as text', async () => {
    const mallorysFile = await upload(mallory, `/api/v1/orders/${malloryOrder}/files`);
    const foreign = await post(alice, url(aliceOrder), { text: 'Look', fileIds: [mallorysFile] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe("An attached file is not one of this order's files.");
    const unknown = await post(alice, url(aliceOrder), { text: 'Look', fileIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.json().message).toBe(foreign.json().message);
    expect((await post(admin, adminUrl(aliceOrder), { text: 'Look', fileIds: [mallorysFile] })).statusCode).toBe(400);

    const long = await post(alice, url(aliceOrder), { text: 'x'.repeat(10 * 1024) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('5,000');
    expect((await post(alice, url(aliceOrder), { text: 'a\u0000b' })).statusCode).toBe(400);
    expect((await post(alice, url(aliceOrder), { text: '   ' })).statusCode).toBe(400);
    expect((await post(alice, url(aliceOrder), { text: 'x', fileIds: ['not-a-uuid'] })).statusCode).toBe(400);
    const html = await post(alice, url(aliceOrder), { text: '<script>alert(1)</script>' });
    expect(html.statusCode).toBe(201);
    expect(html.json().message.text).toBe('<script>alert(1)</script>');
  });

  it(
    'names who wrote each message: "Ravi · <brand>" for staff, "You" (mine) only for the reader\'s own; ' +
      'never a staff e-mail (docs/decisions/271-message-author-names.md)',
    async () => {
      const { customer: bina, orderId: binaOrder } = await seedPaidOrder(t, 'messages.bina@example.com');
      const ravi = await loginAs(t, 'ravi.staff@example.com', 'staff');
      await t.deps.database.query(`update users set name = 'Ravi' where email = 'ravi.staff@example.com'`);
      await t.deps.database.query(`update users set name = 'Bina Rao' where email = 'messages.bina@example.com'`);
      const brand = t.deps.config.BRAND_NAME;
      expect((await post(bina, url(binaOrder), { text: 'Hello team' })).statusCode).toBe(201);
      const byRavi = await post(ravi, adminUrl(binaOrder), { text: 'Ravi here' });
      expect(byRavi.statusCode, byRavi.body).toBe(201);
      expect(byRavi.json().message).toMatchObject({ authorName: `Ravi · ${brand}`, mine: true });
      expect((await post(admin, adminUrl(binaOrder), { text: 'The founder here' })).statusCode).toBe(201);

      const seen = async (who: Who, u: string) =>
        (await get(who, u))
          .json()
          .messages.map((m: { text: string; authorName: string | null; mine: boolean }) => [m.text, m.authorName, m.mine]);
      // The founder: their own message is theirs, Ravi's carries Ravi's name.
      expect(await seen(admin, adminUrl(binaOrder))).toEqual([
        ['Hello team', 'Bina Rao', false],
        ['Ravi here', `Ravi · ${brand}`, false],
        ['The founder here', `messages.boss · ${brand}`, true],
      ]);
      expect(await seen(ravi, adminUrl(binaOrder))).toEqual([
        ['Hello team', 'Bina Rao', false],
        ['Ravi here', `Ravi · ${brand}`, true],
        ['The founder here', `messages.boss · ${brand}`, false],
      ]);
      // The customer: who at the agency wrote, never as "The agency" alone, and no staff address.
      const customerView = await get(bina, url(binaOrder));
      expect(customerView.json().messages.map((m: { authorName: string; mine: boolean }) => [m.authorName, m.mine])).toEqual([
        ['Bina Rao', true],
        [`Ravi · ${brand}`, false],
        [`messages.boss · ${brand}`, false],
      ]);
      expect(customerView.body).not.toContain('ravi.staff@example.com');
      expect(customerView.body).not.toContain(OWNER);
      // A staff member without a name (or whose account is gone): the brand alone, still no address.
      await t.deps.database.query(`update users set name = null where email = 'ravi.staff@example.com'`);
      expect((await get(bina, url(binaOrder))).json().messages[1].authorName).toBe(brand);
    },
  );

  it("the public OpenAPI document lists the customer's routes, not the founder's", async () => {
    const paths = (doc: { paths: Record<string, Record<string, unknown>> }) =>
      Object.keys(doc.paths).filter((p) => p.includes('/messages') && !p.includes('/support/'));
    const pub = paths((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
    expect(pub.sort()).toEqual(['/api/v1/orders/{orderId}/messages', '/api/v1/orders/{orderId}/messages/read']);
    const full = paths((await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: admin.headers })).json());
    expect(full).toContain('/api/v1/admin/orders/{id}/messages');
  });
});

describe('live over socket.io', () => {
  it("delivers a new message to the customer's and an admin's socket in the order's room; nobody else", async () => {
    const aliceSocket = await socketFor(alice);
    const adminSocket = await socketFor(admin);
    const mallorySocket = await socketFor(mallory);
    expect(await request(aliceSocket, ORDER_SOCKET_EVENTS.joinOrder, { orderId: aliceOrder })).toEqual({ ok: true });
    expect(await request(adminSocket, ORDER_SOCKET_EVENTS.joinOrder, { orderId: aliceOrder })).toEqual({ ok: true });
    const refused = await request(mallorySocket, ORDER_SOCKET_EVENTS.joinOrder, { orderId: aliceOrder });
    expect(refused).toEqual({ ok: false, code: 'NOT_FOUND', message: 'Order not found.' });
    expect(await request(mallorySocket, ORDER_SOCKET_EVENTS.joinOrder, { orderId: '' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    const visitor = await socketFor();
    expect(await request(visitor, ORDER_SOCKET_EVENTS.joinOrder, { orderId: aliceOrder })).toMatchObject({
      ok: false,
      code: 'UNAUTHORIZED',
    });
    const leaked = record(mallorySocket, ORDER_SOCKET_EVENTS.orderMessage);
    const leakedToVisitor = record(visitor, ORDER_SOCKET_EVENTS.orderMessage);

    const toAlice = nextEvent<OrderMessageEvent>(aliceSocket, ORDER_SOCKET_EVENTS.orderMessage, (m) => m.text === 'Live from the team');
    const toAdmin = nextEvent<OrderMessageEvent>(adminSocket, ORDER_SOCKET_EVENTS.orderMessage, (m) => m.text === 'Live from the team');
    const sent = await post(admin, adminUrl(aliceOrder), { text: 'Live from the team' });
    expect(sent.statusCode).toBe(201);
    const [a, b] = await Promise.all([toAlice, toAdmin]);
    // The writer's own socket hears it as theirs; the customer's as the agency's (with the author's name).
    expect(a).toEqual({ ...sent.json().message, mine: false, orderId: aliceOrder });
    expect(b).toEqual({ ...a, mine: true });
    expect(a.authorName).toBe(`messages.boss · ${t.deps.config.BRAND_NAME}`);
    // Stored before it was broadcast: the thread already has it.
    expect((await get(alice, url(aliceOrder))).json().messages.at(-1).id).toBe(a.id);

    const fromAlice = nextEvent<OrderMessageEvent>(
      adminSocket,
      ORDER_SOCKET_EVENTS.orderMessage,
      (m) => m.sender === 'customer' && m.text === 'And live back',
    );
    await post(alice, url(aliceOrder), { text: 'And live back' });
    await fromAlice;
    expect(leaked).toEqual([]);
    expect(leakedToVisitor).toEqual([]);
  });

  it('a session revoked after the socket connected cannot join (decision 089)', async () => {
    const who = await loginAs(t, 'messages.alice@example.com');
    const s = await socketFor(who);
    const [row] = await t.deps.database.query<{ id: string }>('select id from sessions order by created_at desc limit 1');
    await revokeSession(t.deps.db, row!.id);
    expect(await request(s, ORDER_SOCKET_EVENTS.joinOrder, { orderId: aliceOrder })).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
  });
});

describe('the per-address socket bound (decision 106)', () => {
  it('never evicts a socket that follows an order: the idle one goes', async () => {
    const small = await buildTestApp({ CHAT_SOCKETS_MAX_PER_IP: '2' });
    try {
      await small.app.listen({ port: 0, host: '127.0.0.1' });
      const at = `http://127.0.0.1:${(small.app.server.address() as { port: number }).port}`;
      const { customer, orderId } = await seedPaidOrder(small, 'messages.bound@example.com');
      const following = await chatClient(at, customer.token);
      sockets.push(following);
      expect(await request(following, ORDER_SOCKET_EVENTS.joinOrder, { orderId })).toEqual({ ok: true });
      const idle = await chatClient(at, customer.token);
      const idleGone = new Promise<string>((resolve) => {
        idle.once('disconnect', resolve);
        setTimeout(() => resolve('still connected after 5 s'), 5000);
      });
      sockets.push(idle, await chatClient(at, customer.token));
      expect(await idleGone).toBe('io server disconnect');
      expect(following.connected).toBe(true);
    } finally {
      for (const s of sockets.splice(0)) s.disconnect();
      await small.close();
    }
  });
});

describe('unread counts', () => {
  it("the customer dashboard and the back office count the other side's unread messages; reading resets them", async () => {
    const { customer: bob, orderId } = await seedPaidOrder(t, 'messages.bob@example.com');
    const dashboard = async () =>
      (await get(bob as Who, '/api/v1/order/getAllOrders/user')).json().orders.find((o: { order_id: string }) => o.order_id === orderId)
        .unreadMessages;
    const backOffice = async () => (await get(admin, `/api/v1/admin/orders?q=${orderId}`)).json().items[0].unreadMessages;
    expect([await dashboard(), await backOffice()]).toEqual([0, 0]);
    await post(admin, adminUrl(orderId), { text: 'One' });
    await post(admin, adminUrl(orderId), { text: 'Two' });
    await post(bob as Who, url(orderId), { text: 'Bob here' });
    // Writing reads: Bob answered, so the team's two are read; Bob's one is unread for the team.
    expect([await dashboard(), await backOffice()]).toEqual([0, 1]);
    await post(admin, adminUrl(orderId), { text: 'Three' });
    expect(await dashboard()).toBe(1);
    expect((await get(admin, `/api/v1/admin/orders/${orderId}`)).json().order.unreadMessages).toBe(0);
    const read = await post(bob as Who, `${url(orderId)}/read`);
    expect(read.json()).toEqual({ success: true, unreadMessages: 0 });
    expect(await dashboard()).toBe(0);
  });
});

describe('a thread in pages (docs/decisions/341-one-rule-per-derived-value.md)', () => {
  it('answers the newest page with the cursor of the one before it; an earlier page marks nothing read; bad input is a 400', async () => {
    const { customer: cara, orderId } = await seedPaidOrder(t, 'messages.cara@example.com');
    for (const text of ['One', 'Two', 'Three', 'Four', 'Five'])
      expect((await post(admin, adminUrl(orderId), { text })).statusCode).toBe(201);
    const dashboard = async () =>
      (await get(cara as Who, '/api/v1/order/getAllOrders/user')).json().orders.find((o: { order_id: string }) => o.order_id === orderId)
        .unreadMessages;
    const texts = (res: { json(): { messages: { text: string }[] } }) => res.json().messages.map((m) => m.text);

    // An earlier page first: it marks nothing read.
    const newest = await get(admin, `${adminUrl(orderId)}?limit=2`);
    expect(texts(newest)).toEqual(['Four', 'Five']);
    const earlier = await get(cara as Who, `${url(orderId)}?limit=2&before=${newest.json().earlierCursor}`);
    expect(earlier.statusCode, earlier.body).toBe(200);
    expect(texts(earlier)).toEqual(['Two', 'Three']);
    expect(await dashboard()).toBe(5);
    const first = await get(cara as Who, `${url(orderId)}?limit=2&before=${earlier.json().earlierCursor}`);
    expect(texts(first)).toEqual(['One']);
    expect(first.json().earlierCursor).toBeNull();
    // The same page again is the kept answer, the same bytes.
    expect((await get(cara as Who, `${url(orderId)}?limit=2&before=${earlier.json().earlierCursor}`)).body).toBe(first.body);

    // The newest page marks the thread read; without a limit it is the whole (short) thread.
    expect(texts(await get(cara as Who, `${url(orderId)}?limit=2`))).toEqual(['Four', 'Five']);
    expect(await dashboard()).toBe(0);
    const all = await get(cara as Who, url(orderId));
    expect(texts(all)).toEqual(['One', 'Two', 'Three', 'Four', 'Five']);
    expect(all.json().earlierCursor).toBeNull();

    for (const q of ['limit=0', 'limit=101', 'limit=x', 'before=nope'])
      expect((await get(cara as Who, `${url(orderId)}?${q}`)).statusCode, q).toBe(400);
    // Another order's message as the cursor reads nothing of either.
    const [other] = (await get(alice, url(aliceOrder))).json().messages;
    expect(texts(await get(cara as Who, `${url(orderId)}?before=${other.id}`))).toEqual([]);
  });
});

describe('the batched notice e-mail', () => {
  it('two messages within the delay make ONE mail after the delay, listing both, without their text', async () => {
    const { customer: carol, orderId } = await seedPaidOrder(t, 'messages.carol@example.com');
    await post(admin, adminUrl(orderId), { text: 'First <b>secret</b> design note' });
    await post(admin, adminUrl(orderId), { text: 'Second\u202Enote' });
    await runJobs(t.deps, secondsLater(60));
    expect(await noticeMails(t, carol.user.email)).toEqual([]);
    await runJobs(t.deps, secondsLater(301));
    await runJobs(t.deps, secondsLater(400));
    const mails = await noticeMails(t, carol.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`News on your order ${orderId}`);
    expect(mails[0]!.text).toContain('2 new messages');
    expect(mails[0]!.text).toContain(`/status/${orderId}`);
    for (const part of [mails[0]!.text, mails[0]!.html]) {
      expect(part).not.toContain('secret');
      expect(part).not.toContain('Second');
    }
    // Nobody else got a notice of Carol's order.
    expect((await noticeMails(t)).filter((m) => m.subject.includes(orderId)).map((m) => m.to)).toEqual([carol.user.email]);
  });

  it("the customer's message reaches the agency's admin addresses; reading it in the app first means no mail", async () => {
    const { customer: dave, orderId } = await seedPaidOrder(t, 'messages.dave@example.com');
    await post(dave as Who, url(orderId), { text: 'Question about fonts' });
    await runJobs(t.deps, secondsLater(301));
    const owner = (await noticeMails(t, OWNER)).filter((m) => m.subject.includes(orderId));
    expect(owner).toHaveLength(1);
    expect(owner[0]!.subject).toBe(`Order ${orderId}: 1 new message`);
    expect(owner[0]!.text).not.toContain('fonts');

    // The team answers; Dave reads the thread in the app before the delay is over: no mail.
    await post(admin, adminUrl(orderId), { text: 'Use Inter' });
    expect((await get(dave as Who, url(orderId))).statusCode).toBe(200);
    await runJobs(t.deps, secondsLater(600));
    expect(await noticeMails(t, dave.user.email)).toEqual([]);
  });

  it('review events become notices: a new round for the customer, a decision and a pin for the agency; reading the reviews skips the mail', async () => {
    const { customer: erin, orderId } = await seedPaidOrder(t, 'messages.erin@example.com');
    const design = await upload(admin, `/api/v1/admin/orders/${orderId}/files`, 'home.png');
    const opened = await post(admin, `/api/v1/admin/orders/${orderId}/reviews`, { kind: 'ui', title: 'Home <i>v1</i>', fileIds: [design] });
    expect(opened.statusCode, opened.body).toBe(201);
    const reviewId = opened.json().review.id;
    await post(admin, adminUrl(orderId), { text: 'Have a look' });
    await runJobs(t.deps, secondsLater(301));
    const toErin = await noticeMails(t, erin.user.email);
    expect(toErin).toHaveLength(1);
    expect(toErin[0]!.text).toContain('1 new message');
    expect(toErin[0]!.text).toContain('UI design review, round 1 is ready for you: "Home <i>v1</i>"');
    expect(toErin[0]!.html).toContain('Home &lt;i&gt;v1&lt;/i&gt;');

    const pin = await post(erin as Who, `/api/v1/orders/${orderId}/reviews/${reviewId}/comments`, {
      fileId: design,
      x: 0.5,
      y: 0.5,
      text: 'Bigger <button>',
    });
    expect(pin.statusCode, pin.body).toBe(201);
    const decided = await post(erin as Who, `/api/v1/orders/${orderId}/reviews/${reviewId}/decision`, {
      decision: 'request_changes',
      comment: 'See the pin',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await runJobs(t.deps, secondsLater(301));
    const owner = (await noticeMails(t, OWNER)).filter((m) => m.subject.includes(orderId));
    expect(owner).toHaveLength(1);
    expect(owner[0]!.text).toContain('The customer requested changes on the UI design review, round 1');
    expect(owner[0]!.text).toContain('1 new comment on a design review');
    expect(owner[0]!.text).not.toContain('Bigger');

    // The team answers the pin; Erin opens the reviews in the app before the delay: no mail.
    const answer = await post(admin, `/api/v1/admin/orders/${orderId}/reviews/${reviewId}/comments`, {
      fileId: design,
      x: 0.5,
      y: 0.5,
      text: 'Done',
      replyTo: pin.json().comment.id,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect((await get(erin as Who, `/api/v1/orders/${orderId}/reviews`)).statusCode).toBe(200);
    await runJobs(t.deps, secondsLater(900));
    expect(await noticeMails(t, erin.user.email)).toHaveLength(1);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)('two instances on one PostgreSQL', () => {
  const apps = instancesOnPostgres(2, { ADMIN_EMAILS: OWNER });

  it('both running the job at once still send one mail per order and recipient', async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const boss = await loginAs(a, OWNER, 'admin');
    const customers: { email: string; orderId: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const { customer, orderId } = await seedPaidOrder(a as TestApp, `pg-notice-${i}@example.com`);
      customers.push({ email: customer.user.email, orderId });
      for (const text of ['one', 'two']) {
        const res = await a.app.inject({
          method: 'POST',
          url: `/api/v1/admin/orders/${orderId}/messages`,
          headers: boss.headers,
          payload: { text },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
    }
    const at = secondsLater(301);
    await Promise.all([runJobs(a.deps, at), runJobs(b.deps, at), runJobs(a.deps, at), runJobs(b.deps, at)]);
    for (const c of customers) {
      const mails = await noticeMails(a, c.email);
      expect(mails, c.email).toHaveLength(1);
      expect(mails[0]!.text).toContain('2 new messages');
    }
  });

  it("a message posted through one instance reaches the customer's socket on the other (the adapter)", async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const listening = async (x: BuiltApp) => {
      await x.app.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(x.app.server.address() as { port: number }).port}`;
    };
    const urlB = await listening(b);
    await listening(a);
    const boss = await loginAs(a, OWNER, 'admin');
    const { customer, orderId } = await seedPaidOrder(a as TestApp, 'pg-live@example.com');
    const s = await chatClient(urlB, customer.token);
    sockets.push(s);
    expect(await request(s, ORDER_SOCKET_EVENTS.joinOrder, { orderId })).toEqual({ ok: true });
    const arrived = nextEvent<OrderMessageEvent>(s, ORDER_SOCKET_EVENTS.orderMessage, (m) => m.orderId === orderId, 10_000);
    const res = await a.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/messages`,
      headers: boss.headers,
      payload: { text: 'Across instances' },
    });
    expect(res.statusCode, res.body).toBe(201);
    // The customer hears the founder's message as someone else's (docs/decisions/271-message-author-names.md).
    expect(await arrived).toEqual({ ...res.json().message, mine: false, orderId });
  });
});
