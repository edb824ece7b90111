import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { seedDeliveredOrder } from '../../../../tests/fixtures/delivered-orders.ts';

// Support the customer can follow and rate, and "How did we do?" after delivery
// (docs/decisions/214-ratings.md), on the real app (PGlite, or PostgreSQL with TEST_DB=postgres).

type Who = Awaited<ReturnType<typeof loginAs>>;
const OWNER = 'ratings.boss@example.com';
let t: TestApp;
let owner: Who;
let staff: Who;
let alice: Who;
let mallory: Who;
let order: string;
let undelivered: string;

const post = (who: Who, url: string, payload: object = {}) => t.app.inject({ method: 'POST', url, headers: who.headers, payload });
const lowRatingMails = () => t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.template, 'rating-low'));

beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: OWNER });
  owner = await loginAs(t, OWNER, 'admin');
  staff = await loginAs(t, 'ratings.staff@example.com', 'staff');
  ({ customer: alice, orderId: order } = await seedDeliveredOrder(t, 'ratings.alice@example.com'));
  ({ customer: mallory, orderId: undelivered } = await seedPaidOrder(t, 'ratings.mallory@example.com'));
}, 240_000);
afterAll(async () => {
  await t?.close();
});

describe('a support request the customer resolves and rates', () => {
  let requestId: string;
  const base = () => `/api/v1/orders/${order}/support/requests/${requestId}`;

  it('shows the response target; the customer marks the request resolved once', async () => {
    const overview = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/support`, headers: alice.headers });
    expect(overview.json().responseTargetHours).toBe(24);
    const created = await post(alice, `/api/v1/orders/${order}/support/requests`, {
      title: 'Menu link',
      description: 'The menu link is broken.',
      category: 'bug',
    });
    expect(created.statusCode, created.body).toBe(201);
    requestId = created.json().request.id;
    expect((await post(alice, `${base()}/rating`, { score: 4 })).statusCode).toBe(409);
    const resolved = await post(alice, `${base()}/resolve`);
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().request.state).toBe('resolved');
    expect((await post(alice, `${base()}/resolve`)).statusCode).toBe(409);
    // Another customer cannot touch it: 404, as for a missing request.
    expect((await post(mallory, `${base()}/resolve`)).statusCode).toBe(404);
  });

  it('rates it once (1–5 and a comment); a score of 1 or 2 mails the founder at once', async () => {
    expect((await post(alice, `${base()}/rating`, { score: 6 })).statusCode).toBe(400);
    expect((await post(alice, `${base()}/rating`, { score: 2.5 })).statusCode).toBe(400);
    const rated = await post(alice, `${base()}/rating`, { score: 2, comment: 'Took two days.' });
    expect(rated.statusCode, rated.body).toBe(201);
    expect(rated.json().rating).toMatchObject({
      kind: 'support',
      orderId: order,
      supportRequestId: requestId,
      score: 2,
      comment: 'Took two days.',
    });
    expect((await post(alice, `${base()}/rating`, { score: 5 })).statusCode).toBe(409);
    const mails = await lowRatingMails();
    expect(mails.map((m) => m.toAddress)).toEqual([OWNER]);
    expect(mails[0]!.textBody).toContain('Took two days.');
  });
});

describe('"How did we do?" after delivery', () => {
  it('rates a delivered order once, with permission to quote; an undelivered or foreign order is a 404', async () => {
    expect((await post(mallory, `/api/v1/orders/${undelivered}/rating`, { score: 5 })).statusCode).toBe(404);
    expect((await post(mallory, `/api/v1/orders/${order}/rating`, { score: 5 })).statusCode).toBe(404);
    const rated = await post(alice, `/api/v1/orders/${order}/rating`, { score: 5, comment: 'Lovely site.', mayQuote: true });
    expect(rated.statusCode, rated.body).toBe(201);
    expect(rated.json().rating).toMatchObject({ kind: 'order', score: 5, mayQuote: true });
    expect((await post(alice, `/api/v1/orders/${order}/rating`, { score: 1 })).statusCode).toBe(409);
    // A high score sends no alert.
    expect(await lowRatingMails()).toHaveLength(1);
    const mine = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/ratings`, headers: alice.headers });
    expect(
      mine
        .json()
        .ratings.map((r: { kind: string }) => r.kind)
        .sort(),
    ).toEqual(['order', 'support']);
  });

  it('the founder and staff see the list and the 90-day average; a customer may not', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/admin/ratings', headers: owner.headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ average90Days: 3.5, count90Days: 2 });
    expect(list.json().ratings[0]).toMatchObject({ kind: 'order', comment: 'Lovely site.', customerEmail: 'ratings.alice@example.com' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/ratings', headers: staff.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/ratings', headers: alice.headers })).statusCode).toBe(403);
  });
});
