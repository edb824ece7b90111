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
import { eq } from 'drizzle-orm';
import { orders, orderStages } from '../../db/schema/orders.ts';
import { notices, orderMessageReads, orderMessages, type MessageSide, type NoticeKind } from '../../db/schema/order-messages.ts';
import { maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { deliveredAtSql, stageCountSql, stagesJsonSql } from '../tracker/stage-sql.ts';
import { SEEN_KINDS, waitingNoticesSql } from '../notices/notices.ts';
import { unreadMessagesSql } from '../order-messages/unread.ts';
import { maintenanceSupportExtension, planViewOf } from '../maintenance/plan-queries.ts';

// One rule for each derived value of the signed-in reads (docs/decisions/341-one-rule-per-derived-value.md):
// each value's one SQL form — the form the reads fold into their statement — equals what an oracle
// computes in TypeScript from the raw rows through the domain's own rules (DELIVERY_STAGE, SEEN_KINDS,
// planViewOf), never from a copy of the SQL, after each writer commits; `order_reads.version` moves
// on every such commit (migrations/1010_order_reads.sql, 1090_order_reads_version_only.sql), and the
// reads answered from kept JSON (lib/versioned-answers.ts) show each change at once — on one instance,
// and on PostgreSQL across two. PGlite, or PostgreSQL with TEST_DB=postgres.

type Who = Awaited<ReturnType<typeof loginAs>>;
const OWNER = 'reads.boss@example.com';
const SIDES = ['customer', 'agency'] as const;
/** The notice groups the reads ask about: what each `order.seen` marks read, and the thread's messages. */
const GROUPS: Record<string, readonly NoticeKind[]> = { ...SEEN_KINDS, message: ['message'] };
const plan = maintenanceSupportExtension;

// Every form, for one order, in one statement.
const FORMS_SQL = `select ${stagesJsonSql('o.id')} as stages, ${stageCountSql('o.id')} as stage_count, ${deliveredAtSql('o.id')} as delivered_at,
    ${SIDES.flatMap((side) => Object.entries(GROUPS).map(([g, kinds]) => `${waitingNoticesSql(`'${side}'`, kinds, 'o.id')} as "w ${side} ${g}"`)).join(', ')},
    ${SIDES.map((side) => `${unreadMessagesSql(side, 'o.id')} as unread_${side}`).join(', ')},
    ${plan.planSql('o.id')} as plan, ${plan.coveredUntilSql('o.id')} as covered_until, rd.version::text as version
  from orders o join order_reads rd on rd.order_id = o.id where o.public_id = $1`;

const iso = (v: Date | string | null | undefined) => (v === null || v === undefined ? null : new Date(v).toISOString());

/** What the reads compute, from the forms, with the order's version. */
async function forms(app: BuiltApp, publicId: string) {
  const [row] = await app.deps.database.query<Record<string, unknown>>(FORMS_SQL, [publicId]);
  const r = row!;
  const planJson = r.plan as { state: string; currentPeriodEnd: string | null; cancelAtPeriodEnd: boolean; startsAt: string | null } | null;
  return {
    values: {
      stages: r.stages as [number, number, string | null][],
      stage_count: Number(r.stage_count),
      delivered_at: iso(r.delivered_at as Date | null),
      waiting_customer: Object.fromEntries(Object.keys(GROUPS).map((g) => [g, r[`w customer ${g}`] as boolean])),
      waiting_agency: Object.fromEntries(Object.keys(GROUPS).map((g) => [g, r[`w agency ${g}`] as boolean])),
      unread_customer: Number(r.unread_customer),
      unread_agency: Number(r.unread_agency),
      plan: planJson && { ...planJson, currentPeriodEnd: iso(planJson.currentPeriodEnd), startsAt: iso(planJson.startsAt) },
      covered_until: iso(r.covered_until as Date | null),
    },
    version: BigInt(r.version as string),
  };
}

/** The oracle: the same values from the raw rows, in TypeScript, through the domain's own rules. */
async function oracle(app: BuiltApp, publicId: string) {
  const db = app.deps.db;
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.publicId, publicId));
  const id = order!.id;
  const stages = (await db.select().from(orderStages).where(eq(orderStages.orderId, id))).sort((a, b) => a.stage - b.stage);
  const waiting = (await db.select().from(notices).where(eq(notices.orderId, id))).filter((n) => n.readAt === null && n.sentAt === null);
  const messages = await db.select().from(orderMessages).where(eq(orderMessages.orderId, id));
  const reads = await db.select().from(orderMessageReads).where(eq(orderMessageReads.orderId, id));
  const subs = (await db.select().from(maintenanceSubscriptions).where(eq(maintenanceSubscriptions.orderId, id))).sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime(),
  );
  const waitingFor = (side: MessageSide) =>
    Object.fromEntries(
      Object.entries(GROUPS).map(([g, kinds]) => [g, waiting.some((n) => n.recipient === side && kinds.includes(n.kind))]),
    );
  const unread = (side: MessageSide) => {
    const marker = reads.find((r) => r.side === side)?.lastReadSeq ?? 0;
    return messages.filter((m) => m.sender !== side && Number(m.seq) > Number(marker)).length;
  };
  // The newest subscription is the plan unless it was never paid (`created`); the cover is the latest
  // end paid over all of them (maintenanceSupportExtension's rule, decision 175).
  const newest = subs[0];
  const isPlan = newest !== undefined && newest.state !== 'created';
  const paid = subs.map((s) => s.paidUntil?.getTime()).filter((t): t is number => t !== undefined);
  return {
    stages: stages.map((s): [number, number, string | null] => [s.stage, s.completedAt.getTime(), s.note]),
    stage_count: stages.length,
    delivered_at: iso(stages.find((s) => s.stage === DELIVERY_STAGE)?.completedAt),
    waiting_customer: waitingFor('customer'),
    waiting_agency: waitingFor('agency'),
    unread_customer: unread('customer'),
    unread_agency: unread('agency'),
    plan: isPlan ? planViewOf(newest) : null,
    covered_until: isPlan && paid.length ? new Date(Math.max(...paid)).toISOString() : null,
  };
}

async function kept(app: BuiltApp, publicId: string) {
  const { values, version } = await forms(app, publicId);
  return { values, live: await oracle(app, publicId), version };
}

const get = (app: BuiltApp, who: Who, url: string) => app.app.inject({ method: 'GET', url, headers: who.headers });
const send = (app: BuiltApp, who: Who, method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) =>
  app.app.inject({ method, url, headers: who.headers, payload });

/** Completes the order's stages up to the delivery. */
async function deliver(app: BuiltApp, orderId: string) {
  for (let done = 0; done < DELIVERY_STAGE;)
    done = (await completeNextStage(app.deps, orderId, { deliveryUrl: 'https://site.example.com' })).completedSteps;
}

describe('order_reads on one instance', () => {
  let t: TestApp;
  let boss: Who;
  beforeAll(async () => {
    t = await buildTestApp({ ADMIN_EMAILS: OWNER });
    boss = await loginAs(t, OWNER, 'admin');
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
    expect(delivered.values).toMatchObject({ stage_count: 15, delivered_at: expect.any(String) });
    last = delivered.version;
    await step('the delivery taken back', () => undoLastStage(t.deps, orderId, { actorUserId: boss.user.id }));
    await step('delivered again', () => completeNextStage(t.deps, orderId, { deliveryUrl: 'https://site.example.com' }));

    const fromAgency = await step('a message from the agency', async () =>
      expect((await send(t, boss, 'POST', `/api/v1/admin/orders/${orderId}/messages`, { text: 'Your site is live.' })).statusCode).toBe(
        201,
      ),
    );
    expect(fromAgency).toMatchObject({ unread_customer: 1, waiting_customer: expect.objectContaining({ message: true }) });
    const read = await step('the customer reads the thread', async () =>
      expect((await get(t, customer, `/api/v1/orders/${orderId}/messages`)).statusCode).toBe(200),
    );
    expect(read).toMatchObject({ unread_customer: 0 });
    expect(read.waiting_customer.message).toBe(false);
    await step('a message from the customer', async () =>
      expect((await send(t, customer, 'POST', `/api/v1/orders/${orderId}/messages`, { text: 'Thank you!' })).statusCode).toBe(201),
    );
    await step('a support request', async () =>
      expect(
        (
          await send(t, customer, 'POST', `/api/v1/orders/${orderId}/support/requests`, {
            title: 'A typo',
            description: 'On the home page.',
            category: 'bug',
          })
        ).statusCode,
      ).toBe(201),
    );
    const [order] = await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orderId]);
    const planned = await step('a maintenance plan', () =>
      t.deps.database.query(
        `insert into maintenance_subscriptions (order_id, provider, provider_subscription_id, provider_plan_id, currency, amount, state, paid_until)
         values ($1, 'test', 'sub_reads_1', 'plan_reads', 'INR', 99900, 'active', now() + interval '400 days')`,
        [order!.id],
      ),
    );
    expect(planned).toMatchObject({ plan: expect.objectContaining({ state: 'active' }), covered_until: expect.anything() });
    await step('the plan cancelled', () =>
      t.deps.database.query("update maintenance_subscriptions set state = 'cancelled' where order_id = $1", [order!.id]),
    );
    await step('the customer renamed', async () =>
      expect((await send(t, customer, 'PATCH', '/api/v1/user/profile', { name: 'Reads Renamed' })).statusCode).toBe(200),
    );
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
    await undoLastStage(t.deps, orderId, { actorUserId: (await loginAs(t, OWNER, 'admin')).user.id });
    expect((await get(t, customer, urls.support)).statusCode).toBe(404);
    const undone = await read(['status', 'list']);
    expect((undone.status as { deliveredAt: string | null }).deliveredAt).toBeNull();
    expect((undone.list as { orders: { completed_steps: number }[] }).orders[0]!.completed_steps).toBe(13);
    await completeNextStage(t.deps, orderId, { deliveryUrl: 'https://site.example.com' });

    const boss = await loginAs(t, OWNER, 'admin');
    expect((await send(t, boss, 'POST', `/api/v1/admin/orders/${orderId}/messages`, { text: 'Anything else?' })).statusCode).toBe(201);
    // The list is read before the thread (which marks it read): it counts the new message.
    const listed = (await get(t, customer, urls.list)).json() as { orders: { unreadMessages: number }[] };
    expect(listed.orders[0]!.unreadMessages).toBe(1);
    const thread = (await get(t, customer, urls.thread)).json() as { messages: { text: string; authorName: string }[] };
    expect(thread.messages.map((m) => m.text)).toEqual(['Anything else?']);

    expect((await send(t, customer, 'POST', `/api/v1/orders/${orderId}/messages`, { text: 'All good' })).statusCode).toBe(201);
    expect(
      (await send(t, customer, 'POST', urls.support + '/requests', { title: 'Logo', description: 'Bigger, please.', category: 'change' }))
        .statusCode,
    ).toBe(201);
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
  const apps = instancesOnPostgres(2, { ADMIN_EMAILS: OWNER });

  it("one instance's kept answers show what the other changed", async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const { customer, orderId } = await seedDeliveredOrder(a, 'reads.two@example.com');
    const status = `/api/v1/status/getStatus/order/${orderId}`;
    const thread = `/api/v1/orders/${orderId}/messages`;
    for (let i = 0; i < 2; i++) {
      expect((await get(a, customer, status)).json().deliveredAt).not.toBeNull();
      expect((await get(a, customer, thread)).json().messages).toEqual([]);
    }
    const boss = await loginAs(b, OWNER, 'admin');
    await undoLastStage(b.deps, orderId, { actorUserId: boss.user.id });
    expect((await send(b, boss, 'POST', `/api/v1/admin/orders/${orderId}/messages`, { text: 'From b' })).statusCode).toBe(201);
    expect((await get(a, customer, status)).json().deliveredAt).toBeNull();
    expect((await get(a, customer, thread)).json().messages.map((m: { text: string }) => m.text)).toEqual(['From b']);
  });

  it('a commit waits for no lock the app takes, and two concurrent writers each move the version and are both counted', async () => {
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
      // change that does not touch that row commits (a notice read): the commit's version trigger
      // locks only order_reads, so it does not wait — a trigger writing the order row would
      // (docs/decisions/316-order-read-columns.md).
      await two.query(
        "insert into notices (order_id, recipient, kind, ref_id, summary) values ($1, 'customer', 'message', gen_random_uuid(), 'A message')",
        [order!.id],
      );
      expect((await kept(a, orderId)).values.waiting_customer.message).toBe(true);
      await one.query('begin');
      await one.query('select id from orders where id = $1 for update', [order!.id]);
      // Two of its sources in one transaction: the order's version moves twice at commit.
      const before = (await kept(a, orderId)).version;
      const update = (async () => {
        await two.query('begin');
        await two.query('update notices set read_at = now() where order_id = $1', [order!.id]);
        await two.query("update order_stages set note = 'Checked' where order_id = $1", [order!.id]);
        await two.query('commit');
      })();
      const waited = await Promise.race([update.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 3000))]);
      expect(waited).toBe(false);
      const refreshed = await kept(a, orderId);
      expect(refreshed.values.waiting_customer.message).toBe(false);
      expect(JSON.stringify(refreshed.values.stages)).toContain('Checked');
      expect(refreshed.version).toBe(before + 2n);
      await one.query('commit');

      // Two transactions add a message each and commit together: the second commit's version trigger
      // waits for the first, both move the version, and the read counts both.
      await one.query('begin');
      await two.query('begin');
      await one.query("insert into order_messages (order_id, sender, text) values ($1, 'agency', 'one')", [order!.id]);
      await two.query("insert into order_messages (order_id, sender, text) values ($1, 'agency', 'two')", [order!.id]);
      await Promise.all([one.query('commit'), two.query('commit')]);
      const now = await kept(a, orderId);
      expect(now.values).toEqual(now.live);
      expect(now.values.unread_customer).toBe(2);
      expect(now.version).toBe(refreshed.version + 2n);
    } finally {
      await one.end();
      await two.end();
    }
  });
});
