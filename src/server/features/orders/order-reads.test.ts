import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import { seedPaidOrder, seedRemainingPayment } from '../../../../tests/fixtures/paid-orders.ts';
import { seedDeliveredOrder } from '../../../../tests/fixtures/delivered-orders.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import type { BuiltApp } from '../../app.ts';
import { completeNextStage, undoLastStage } from '../tracker/complete-next-stage.ts';
import { readOwnSupport } from '../support/requests.ts';

// `order_reads` (migrations/1010_order_reads.sql, docs/decisions/317-order-reads-table.md): every
// value the database keeps equals what the source tables say after each of its writers commits, the
// version moves on every such commit, and the reads answered from kept JSON
// (lib/versioned-answers.ts) show each change at once — on one instance, and on PostgreSQL across
// two. PGlite, or PostgreSQL with TEST_DB=postgres.

type Who = Awaited<ReturnType<typeof loginAs>>;
const FOUNDER = 'reads.boss@example.com';

// The values as the reads computed them before order_reads (decisions 285 and 291): the oracle.
const LIVE_SQL = `select
    (select coalesce(json_agg(json_build_array(s.stage, floor(extract(epoch from s.completed_at) * 1000)::bigint, s.note) order by s.stage), '[]'::json)
       from order_stages s where s.order_id = o.id)::text as stages,
    (select count(*)::int from order_stages s where s.order_id = o.id) as stage_count,
    (select s.completed_at from order_stages s where s.order_id = o.id and s.stage = 15) as delivered_at,
    array(select distinct n.kind from notices n where n.order_id = o.id and n.recipient = 'customer' and n.read_at is null and n.sent_at is null order by 1) as waiting_customer,
    array(select distinct n.kind from notices n where n.order_id = o.id and n.recipient = 'agency' and n.read_at is null and n.sent_at is null order by 1) as waiting_agency,
    (select count(*)::int from order_messages m where m.order_id = o.id and m.sender = 'agency'
       and m.seq > coalesce((select r.last_read_seq from order_message_reads r where r.order_id = o.id and r.side = 'customer'), 0)) as unread_customer,
    (select count(*)::int from order_messages m where m.order_id = o.id and m.sender = 'customer'
       and m.seq > coalesce((select r.last_read_seq from order_message_reads r where r.order_id = o.id and r.side = 'agency'), 0)) as unread_agency,
    (select case when s.state <> 'created' then json_build_object('state', s.state, 'currentPeriodEnd', s.paid_until, 'cancelAtPeriodEnd', s.cancel_at_period_end,
                                                                   'startsAt', case when s.paid_until is null then s.starts_at end) end
       from maintenance_subscriptions s where s.order_id = o.id order by s.created_at desc limit 1)::text as plan,
    (select case when s.state <> 'created' then (select max(p.paid_until) from maintenance_subscriptions p where p.order_id = o.id) end
       from maintenance_subscriptions s where s.order_id = o.id order by s.created_at desc limit 1) as covered_until
  from orders o where o.public_id = $1`;
const KEPT_SQL = `select rd.stages::text as stages, rd.stage_count, rd.delivered_at, rd.waiting_customer, rd.waiting_agency,
    rd.unread_customer, rd.unread_agency, rd.plan::text as plan, rd.covered_until, rd.version::text as version
  from order_reads rd join orders o on o.id = rd.order_id where o.public_id = $1`;

async function kept(app: BuiltApp, publicId: string) {
  const [live] = await app.deps.database.query<Record<string, unknown>>(LIVE_SQL, [publicId]);
  const [row] = await app.deps.database.query<Record<string, unknown> & { version: string }>(KEPT_SQL, [publicId]);
  const { version, ...values } = row!;
  return { live: live!, values, version: BigInt(version) };
}

const get = (app: BuiltApp, who: Who, url: string) => app.app.inject({ method: 'GET', url, headers: who.headers });
const send = (app: BuiltApp, who: Who, method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) => app.app.inject({ method, url, headers: who.headers, payload });

/** Completes the order's stages up to the delivery. */
async function deliver(app: BuiltApp, orderId: string) {
  for (let done = 0; done < DELIVERY_STAGE; ) done = (await completeNextStage(app.deps, orderId, { deliveryUrl: 'https://site.example.com' })).completedSteps;
}

describe('order_reads on one instance', () => {
  let t: TestApp;
  let boss: Who;
  beforeAll(async () => {
    t = await buildTestApp({ ADMIN_EMAILS: FOUNDER });
    boss = await loginAs(t, FOUNDER, 'admin');
  });
  afterAll(async () => t?.close());

  it('keeps every value equal to its source tables after each writer, and moves the version on each commit', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'reads.values@example.com');
    let last = (await kept(t, orderId)).version;
    // Each step commits one writer's change; then the kept values equal the live ones and the version has moved.
    const step = async (what: string, change: () => Promise<unknown>) => {
      await change();
      const now = await kept(t, orderId);
      expect(now.values, what).toEqual(now.live);
      expect(now.version > last, `${what}: the version moves`).toBe(true);
      last = now.version;
      return now.values;
    };
    await step('the rest paid (installments)', () => seedRemainingPayment(t, customer, orderId));
    await step('a stage completed with a note', () => completeNextStage(t.deps, orderId, { note: 'Call booked' }));
    await deliver(t, orderId);
    const delivered = await kept(t, orderId);
    expect(delivered.values).toEqual(delivered.live);
    expect(delivered.values).toMatchObject({ stage_count: 15, delivered_at: expect.anything() });
    last = delivered.version;
    await step('the delivery taken back', () => undoLastStage(t.deps, orderId, { actorUserId: boss.user.id }));
    await step('delivered again', () => completeNextStage(t.deps, orderId, { deliveryUrl: 'https://site.example.com' }));

    const fromAgency = await step('a message from the agency', async () =>
      expect((await send(t, boss, 'POST', `/api/v1/admin/orders/${orderId}/messages`, { text: 'Your site is live.' })).statusCode).toBe(201),
    );
    expect(fromAgency).toMatchObject({ unread_customer: 1, waiting_customer: expect.arrayContaining(['message']) });
    const read = await step('the customer reads the thread', async () => expect((await get(t, customer, `/api/v1/orders/${orderId}/messages`)).statusCode).toBe(200));
    expect(read).toMatchObject({ unread_customer: 0 });
    expect(read.waiting_customer).not.toContain('message');
    await step('a message from the customer', async () =>
      expect((await send(t, customer, 'POST', `/api/v1/orders/${orderId}/messages`, { text: 'Thank you!' })).statusCode).toBe(201),
    );
    await step('a support request', async () =>
      expect((await send(t, customer, 'POST', `/api/v1/orders/${orderId}/support/requests`, { title: 'A typo', description: 'On the home page.', category: 'bug' })).statusCode).toBe(201),
    );
    const [order] = await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orderId]);
    const planned = await step('a maintenance plan', () =>
      t.deps.database.query(
        `insert into maintenance_subscriptions (order_id, provider, provider_subscription_id, provider_plan_id, currency, amount, state, paid_until)
         values ($1, 'test', 'sub_reads_1', 'plan_reads', 'INR', 99900, 'active', now() + interval '400 days')`,
        [order!.id],
      ),
    );
    expect(planned).toMatchObject({ plan: expect.stringContaining('"active"'), covered_until: expect.anything() });
    await step('the plan cancelled', () => t.deps.database.query("update maintenance_subscriptions set state = 'cancelled' where order_id = $1", [order!.id]));
    await step('the customer renamed', async () => expect((await send(t, customer, 'PATCH', '/api/v1/user/profile', { name: 'Reads Renamed' })).statusCode).toBe(200));
  });

  it('answers the kept status, list, thread and support page only while nothing they show has changed', async () => {
    const { customer, orderId } = await seedDeliveredOrder(t, 'reads.answers@example.com');
    const urls = {
      status: `/api/v1/status/getStatus/order/${orderId}`,
      list: '/api/v1/order/getAllOrders/user',
      thread: `/api/v1/orders/${orderId}/messages`,
      support: `/api/v1/orders/${orderId}/support`,
    };
    const read = async (names = Object.keys(urls) as (keyof typeof urls)[]) => {
      const out: Record<string, unknown> = {};
      for (const [name, url] of Object.entries(urls).filter(([n]) => names.includes(n as keyof typeof urls))) {
        const res = await get(t, customer, url);
        expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        out[name] = res.json();
      }
      return out;
    };
    // Read twice: the second is the kept answer, the same bytes as a fresh read.
    const first = await read();
    expect(await read()).toEqual(first);

    // The delivery taken back (support is for delivered orders: its page is a 404 meanwhile).
    await undoLastStage(t.deps, orderId, { actorUserId: (await loginAs(t, FOUNDER, 'admin')).user.id });
    expect((await get(t, customer, urls.support)).statusCode).toBe(404);
    const undone = await read(['status', 'list']);
    expect((undone.status as { deliveredAt: string | null }).deliveredAt).toBeNull();
    expect((undone.list as { orders: { completed_steps: number }[] }).orders[0]!.completed_steps).toBe(13);
    await completeNextStage(t.deps, orderId, { deliveryUrl: 'https://site.example.com' });

    const boss = await loginAs(t, FOUNDER, 'admin');
    expect((await send(t, boss, 'POST', `/api/v1/admin/orders/${orderId}/messages`, { text: 'Anything else?' })).statusCode).toBe(201);
    // The list is read before the thread (which marks it read): it counts the new message.
    const listed = (await get(t, customer, urls.list)).json() as { orders: { unreadMessages: number }[] };
    expect(listed.orders[0]!.unreadMessages).toBe(1);
    const thread = (await get(t, customer, urls.thread)).json() as { messages: { text: string; authorName: string }[] };
    expect(thread.messages.map((m) => m.text)).toEqual(['Anything else?']);

    expect((await send(t, customer, 'POST', `/api/v1/orders/${orderId}/messages`, { text: 'All good' })).statusCode).toBe(201);
    expect((await send(t, customer, 'POST', urls.support + '/requests', { title: 'Logo', description: 'Bigger, please.', category: 'change' })).statusCode).toBe(201);
    const after = await read();
    expect((after.thread as { messages: { text: string }[] }).messages.map((m) => m.text)).toEqual(['Anything else?', 'All good']);
    expect((after.support as { requests: { title: string }[] }).requests.map((r) => r.title)).toEqual(['Logo']);

    // A rename shows in the thread the renamed user wrote in.
    expect((await send(t, customer, 'PATCH', '/api/v1/user/profile', { name: 'Renamed Customer' })).statusCode).toBe(200);
    const renamed = (await get(t, customer, urls.thread)).json() as { messages: { text: string; authorName: string }[] };
    expect(renamed.messages.find((m) => m.text === 'All good')!.authorName).toBe('Renamed Customer');

    // The support page is kept until the first instant it reads differently: the end of the included
    // year, while it lies ahead; then the end of support.
    const viewer = { side: 'customer' as const, userId: customer.user.id };
    const page = await readOwnSupport(t.deps, orderId, viewer);
    expect(page.version).not.toBeNull();
    expect(page.until).toBe(Date.parse((after.support as { supportUntil: string }).supportUntil));
    expect(page.until).toBeGreaterThan(Date.now());
    const ended = await readOwnSupport(t.deps, orderId, viewer, new Date(page.until + 1));
    expect(ended.overview.covered).toBe(false);
    expect(ended.until).toBe(Infinity);

    // Another customer's kept page is never theirs: 404 as before.
    const mallory = await loginAs(t, 'reads.mallory@example.com');
    for (const url of [urls.status, urls.thread, urls.support]) expect((await get(t, mallory, url)).statusCode, url).toBe(404);
    expect(((await get(t, mallory, urls.list)).json() as { orders: unknown[] }).orders).toEqual([]);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)('order_reads on PostgreSQL', () => {
  const apps = instancesOnPostgres(2, { ADMIN_EMAILS: FOUNDER });

  it("one instance's kept answers show what the other changed", async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const { customer, orderId } = await seedDeliveredOrder(a, 'reads.two@example.com');
    const status = `/api/v1/status/getStatus/order/${orderId}`;
    const thread = `/api/v1/orders/${orderId}/messages`;
    for (let i = 0; i < 2; i++) {
      expect((await get(a, customer, status)).json().deliveredAt).not.toBeNull();
      expect((await get(a, customer, thread)).json().messages).toEqual([]);
    }
    const boss = await loginAs(b, FOUNDER, 'admin');
    await undoLastStage(b.deps, orderId, { actorUserId: boss.user.id });
    expect((await send(b, boss, 'POST', `/api/v1/admin/orders/${orderId}/messages`, { text: 'From b' })).statusCode).toBe(201);
    expect((await get(a, customer, status)).json().deliveredAt).toBeNull();
    expect((await get(a, customer, thread)).json().messages.map((m: { text: string }) => m.text)).toEqual(['From b']);
  });

  it('a commit waits for no lock the app takes, and two concurrent writers are both counted', async () => {
    const [a] = apps as [BuiltApp];
    const { orderId } = await seedPaidOrder(a as TestApp, 'reads.locks@example.com');
    const [order] = await a.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orderId]);
    const url = (a.deps.database.pool as pg.Pool).options.connectionString!;
    const one = new pg.Client({ connectionString: url });
    const two = new pg.Client({ connectionString: url });
    await one.connect();
    await two.connect();
    try {
      // The app's own lock on the order row (a checkout, a cancel, a subscribe) is held while a
      // change that does not touch that row commits (a notice read): the commit's trigger locks only
      // order_reads, so it does not wait — a trigger writing the order row would
      // (docs/decisions/316-order-read-columns.md).
      await two.query("insert into notices (order_id, recipient, kind, ref_id, summary) values ($1, 'customer', 'message', gen_random_uuid(), 'A message')", [order!.id]);
      expect((await kept(a, orderId)).values.waiting_customer).toEqual(expect.arrayContaining(['message']));
      await one.query('begin');
      await one.query('select id from orders where id = $1 for update', [order!.id]);
      // Two of its sources in one transaction: the order's row is refreshed twice at commit.
      const update = (async () => {
        await two.query('begin');
        await two.query('update notices set read_at = now() where order_id = $1', [order!.id]);
        await two.query("update order_stages set note = 'Checked' where order_id = $1", [order!.id]);
        await two.query('commit');
      })();
      const waited = await Promise.race([update.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 3000))]);
      expect(waited).toBe(false);
      const refreshed = await kept(a, orderId);
      expect(refreshed.values.waiting_customer).not.toContain('message');
      expect(refreshed.values.stages).toContain('Checked');
      await one.query('commit');

      // Two transactions add a message each and commit one after the other, each counting before
      // the other committed: the second commit's trigger waits for the first and counts both.
      await one.query('begin');
      await two.query('begin');
      await one.query("insert into order_messages (order_id, sender, text) values ($1, 'agency', 'one')", [order!.id]);
      await two.query("insert into order_messages (order_id, sender, text) values ($1, 'agency', 'two')", [order!.id]);
      await Promise.all([one.query('commit'), two.query('commit')]);
      const now = await kept(a, orderId);
      expect(now.values).toEqual(now.live);
      expect(now.values.unread_customer).toBe(2);
    } finally {
      await one.end();
      await two.end();
    }
  });
});
