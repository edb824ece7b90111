import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { dueDateAfter } from '../../../domain/delivery-date.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { PDF, PLAIN_ZIP, PNG, JPEG } from '../../../../tests/fixtures/file-bytes.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import type { DomainEventMap } from '../../lib/domain-events.ts';

// Design reviews on the real app (decision 150) (PGlite, or PostgreSQL with TEST_DB=postgres): rounds, pins,
// decisions, the approval → stage rule of decision 150, and every attack of the list that
// concerns reviews.

type Who = { headers: Record<string, string> };
let t: TestApp;
let filesDir: string;
let owner: Awaited<ReturnType<typeof loginAs>>;
let alice: Awaited<ReturnType<typeof loginAs>>;
let mallory: Awaited<ReturnType<typeof loginAs>>;
let aliceOrder: string;
let malloryOrder: string;
const events: { name: keyof DomainEventMap; event: unknown }[] = [];

const base = (order: string) => `/api/v1/orders/${order}/reviews`;
const adminBase = (order: string) => `/api/v1/admin/orders/${order}/reviews`;
const post = (who: Who, url: string, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });
const get = (who: Who, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });
const count = async (table: string) => (await t.deps.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;

async function uploadAs(who: Who, url: string, name: string, data: Buffer): Promise<string> {
  const form = fileForm(name, data);
  const res = await t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...form.headers }, payload: form.payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().file.id;
}
/** Two designs (PNG, JPEG) the agency uploads to an order. */
const designs = async (order: string) => [
  await uploadAs(owner, `/api/v1/admin/orders/${order}/files`, 'home.png', PNG),
  await uploadAs(owner, `/api/v1/admin/orders/${order}/files`, 'about.jpg', JPEG),
];
async function openRound(order: string, body: Record<string, unknown>) {
  const res = await post(owner, adminBase(order), { title: 'Home and About', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().review as { id: string; round: number; kind: string; fileIds: string[]; state: string };
}
const decide = (who: Who, order: string, reviewId: string, body: unknown) => post(who, `${base(order)}/${reviewId}/decision`, body);
const pin = (who: Who, order: string, reviewId: string, body: unknown) => post(who, `${base(order)}/${reviewId}/comments`, body);
const status = async (who: Who, order: string) => (await get(who, `/api/v1/status/getStatus/order/${order}`)).json();
/** Completes the founder's stages until `stages` are complete (stage 1 is the paid advance). */
const stagesOf = async (order: string) =>
  (
    await t.deps.database.query<{ stage: number }>(
      'select s.stage from order_stages s join orders o on o.id = s.order_id where o.public_id = $1 order by s.stage',
      [order],
    )
  ).map((r) => r.stage);
const completeUpTo = async (order: string, stages: number) => {
  for (let done = (await stagesOf(order)).length; done < stages; done++) await completeNextStage(t.deps, order, {});
};

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'reviews-test-'));
  t = await buildTestApp({ FILES_DIR: filesDir });
  for (const name of ['review.opened', 'review.commented', 'review.decided'] as const)
    t.deps.events.afterCommit(name, async (event) => void events.push({ name, event }));
  owner = await loginAs(t, 'reviews.boss@example.com', 'admin');
  ({ customer: alice, orderId: aliceOrder } = await seedPaidOrder(t, 'reviews.alice@example.com'));
  ({ customer: mallory, orderId: malloryOrder } = await seedPaidOrder(t, 'reviews.mallory@example.com'));
});
afterAll(async () => {
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('opening a round (founder)', () => {
  it('opens round 1 of a kind on images/PDF of the order; both sides list it; it is audited and published', async () => {
    const [home, about] = await designs(aliceOrder);
    const pdf = await uploadAs(owner, `/api/v1/admin/orders/${aliceOrder}/files`, 'pages.pdf', PDF);
    const review = await openRound(aliceOrder, {
      kind: 'ui',
      note: 'Two pages.\nLook at the header.',
      fileIds: [about, home, pdf],
      previewUrl: 'https://preview.example.com/v1',
    });
    expect(review).toMatchObject({
      kind: 'ui',
      round: 1,
      state: 'open',
      fileIds: [about, home, pdf],
      previewUrl: 'https://preview.example.com/v1',
      note: 'Two pages.\nLook at the header.',
    });

    const mine = await get(alice, base(aliceOrder));
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().reviews).toEqual([
      {
        id: review.id,
        kind: 'ui',
        round: 1,
        title: 'Home and About',
        note: 'Two pages.\nLook at the header.',
        fileIds: [about, home, pdf],
        previewUrl: 'https://preview.example.com/v1',
        state: 'open',
        decidedAt: null,
        decisionComment: null,
        comments: [],
        createdAt: expect.any(String),
      },
    ]);
    expect((await get(owner, adminBase(aliceOrder))).json().reviews).toEqual(mine.json().reviews);
    const [audit] = await t.deps.database.query<{ action: string; entity_id: string; after: { round: number } }>(
      "select action, entity_id, after from admin_audit_log where action = 'order.review.open' order by created_at desc limit 1",
    );
    expect(audit).toMatchObject({ entity_id: aliceOrder, after: { round: 1, kind: 'ui' } });
    expect(events.at(-1)).toMatchObject({
      name: 'review.opened',
      event: {
        orderPublicId: aliceOrder,
        customerEmail: 'reviews.alice@example.com',
        reviewId: review.id,
        kind: 'ui',
        round: 1,
        fileIds: [about, home, pdf],
      },
    });

    // One open round per kind: the next waits for the customer's decision; the other kind is independent.
    const again = await post(owner, adminBase(aliceOrder), { kind: 'ui', title: 'Too soon', fileIds: [home] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/Round 1 of the UI review is still open/);
    expect((await openRound(aliceOrder, { kind: 'final', fileIds: [home] })).round).toBe(1);
  });

  it('refuses a file of another order, a non-image, no files, a bad preview link — and creates nothing', async () => {
    const [own] = await designs(aliceOrder);
    const foreign = await uploadAs(owner, `/api/v1/admin/orders/${malloryOrder}/files`, 'theirs.png', PNG);
    const zip = await uploadAs(owner, `/api/v1/admin/orders/${aliceOrder}/files`, 'assets.zip', PLAIN_ZIP);
    const before = [await count('order_reviews'), await count('order_review_files'), await count('admin_audit_log')];
    const cases: [unknown, RegExp][] = [
      [{ kind: 'ui', title: 'X', fileIds: [own, foreign] }, new RegExp(`Not a file of this order: ${foreign}`)],
      [{ kind: 'ui', title: 'X', fileIds: ['00000000-0000-4000-8000-000000000000'] }, /Not a file of this order/],
      [{ kind: 'ui', title: 'X', fileIds: [zip] }, /"assets\.zip" cannot be reviewed: a round shows images .* or PDF/],
      [{ kind: 'ui', title: 'X', fileIds: [] }, /at least one image or PDF/],
      [{ kind: 'ui', title: 'X', fileIds: [own, own] }, /listed twice/],
      [{ kind: 'ui', title: 'X', fileIds: ['../etc/passwd'] }, /UUID/],
      [{ kind: 'ui', title: 'X', fileIds: [own], previewUrl: 'javascript:alert(1)' }, /http or https/],
      [{ kind: 'ui', title: 'X', fileIds: [own], previewUrl: 'ftp://example.com/x' }, /http or https/],
      [{ kind: 'ui', title: 'X', fileIds: [own], previewUrl: 'https://' }, /http or https/],
      [{ kind: 'draft', title: 'X', fileIds: [own] }, /"ui" or "final"/],
      [{ kind: 'ui', title: '   ', fileIds: [own] }, /title/],
      [{ kind: 'ui', title: 'A\u0000B', fileIds: [own] }, /NUL/],
      [{ kind: 'ui', title: 'x'.repeat(121), fileIds: [own] }, /at most 120/],
    ];
    for (const [body, message] of cases) {
      const res = await post(owner, adminBase(malloryOrder), body);
      // On Mallory's order Alice's file is "not of this order" too: nothing about Alice's order is said.
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`).toBe(400);
      const onAlice = await post(owner, adminBase(aliceOrder), body);
      expect(onAlice.statusCode, `${JSON.stringify(body).slice(0, 80)}: ${onAlice.body}`).toBe(400);
      if (JSON.stringify(body).includes(foreign)) expect(onAlice.json().message).toMatch(message);
      else expect(onAlice.json().message, JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    expect([await count('order_reviews'), await count('order_review_files'), await count('admin_audit_log')]).toEqual(before);
  });

  it('a customer cannot open a round or resolve a pin (403), and has no such route of their own', async () => {
    const [home] = await designs(aliceOrder);
    const open = await post(alice, adminBase(aliceOrder), { kind: 'ui', title: 'Mine', fileIds: [home] });
    expect(open.statusCode).toBe(403);
    const [review] = (await get(alice, base(aliceOrder))).json().reviews;
    const resolve = await post(alice, `${adminBase(aliceOrder)}/${review.id}/comments/00000000-0000-4000-8000-000000000000/resolve`);
    expect(resolve.statusCode).toBe(403);
    expect((await post(alice, base(aliceOrder), { kind: 'ui', title: 'Mine', fileIds: [home] })).statusCode).toBe(404);
    expect((await post(alice, `${base(aliceOrder)}/${review.id}/comments/00000000-0000-4000-8000-000000000000/resolve`)).statusCode).toBe(
      404,
    );
  });
});

describe('pins and answers', () => {
  let order: string;
  let customer: Awaited<ReturnType<typeof loginAs>>;
  let review: { id: string; fileIds: string[] };
  beforeAll(async () => {
    ({ customer, orderId: order } = await seedPaidOrder(t, 'reviews.pins@example.com'));
    review = await openRound(order, { kind: 'ui', fileIds: await designs(order) });
  });

  it('stores a pin as fractions of the image, HTML as plain text, and publishes it', async () => {
    const html = '<img src=x onerror=alert(1)> make this <b>bigger</b>';
    const res = await pin(customer, order, review.id, { fileId: review.fileIds[1], x: 0.25, y: 1, text: html });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().comment).toEqual({
      id: expect.any(String),
      fileId: review.fileIds[1],
      x: 0.25,
      y: 1,
      text: html,
      author: 'customer',
      resolved: false,
      createdAt: expect.any(String),
      replyTo: null,
      pageUrl: null,
      selector: null,
      viewport: null,
      screenshotFileId: null,
      browser: null,
    });
    const listed = (await get(customer, base(order))).json().reviews[0].comments;
    expect(listed).toEqual([res.json().comment]);
    expect(events.at(-1)).toMatchObject({
      name: 'review.commented',
      event: { orderPublicId: order, reviewId: review.id, author: 'customer', text: html, commentId: res.json().comment.id },
    });
    expect(
      await t.deps.database.query('select count(*)::int as n from admin_audit_log where entity_id = $1 and action like $2', [
        order,
        'order.review.comment%',
      ]),
    ).toEqual([{ n: 0 }]);
  });

  it('refuses pins off the image, not numbers, on another file, 10 KB of text and NUL (400), storing nothing', async () => {
    const before = await count('order_review_comments');
    const ok = { fileId: review.fileIds[0], x: 0.5, y: 0.5, text: 'here' };
    const cases: [unknown, RegExp][] = [
      [{ ...ok, x: 1.5 }, /x must be from 0 to 1/],
      [{ ...ok, y: -0.01 }, /y must be from 0 to 1/],
      [{ ...ok, x: 'NaN' }, /x must be a number/],
      [{ ...ok, x: null }, /x must be a number/],
      [{ ...ok, x: 1e400 }, /x must be/],
      [{ ...ok, fileId: '00000000-0000-4000-8000-000000000000' }, /not part of this review round/],
      [{ ...ok, text: 'x'.repeat(10 * 1024) }, /at most 2000 characters/],
      [{ ...ok, text: 'before\u0000after' }, /NUL/],
      [{ ...ok, text: '  ' }, /Write a comment/],
    ];
    for (const [body, message] of cases) {
      const res = await pin(customer, order, review.id, body);
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 60)}: ${res.body}`).toBe(400);
      expect(res.json().message, JSON.stringify(body).slice(0, 60)).toMatch(message);
    }
    // NaN is not JSON: a body that says it is refused as unreadable, never stored as NaN.
    const raw = await t.app.inject({
      method: 'POST',
      url: `${base(order)}/${review.id}/comments`,
      headers: { ...customer.headers, 'content-type': 'application/json' },
      payload: `{"fileId":"${ok.fileId}","x":NaN,"y":0.5,"text":"here"}`,
    });
    expect(raw.statusCode).toBe(400);
    expect(await count('order_review_comments')).toBe(before);
  });

  it('the founder answers a pin at its place and resolves it (audited once; again changes nothing)', async () => {
    const first = (await pin(customer, order, review.id, { fileId: review.fileIds[0], x: 0.1, y: 0.2, text: 'Logo bigger' })).json()
      .comment;
    const answer = await post(owner, `${adminBase(order)}/${review.id}/comments`, {
      fileId: first.fileId,
      x: first.x,
      y: first.y,
      text: 'Done in round 2',
      replyTo: first.id,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().comment).toMatchObject({ author: 'agency', replyTo: first.id, text: 'Done in round 2' });
    expect(
      (
        await post(owner, `${adminBase(order)}/${review.id}/comments`, {
          ...first,
          text: 'x',
          replyTo: '00000000-0000-4000-8000-000000000000',
        })
      ).statusCode,
    ).toBe(404);

    const resolveUrl = `${adminBase(order)}/${review.id}/comments/${first.id}/resolve`;
    const audits = async () =>
      (
        await t.deps.database.query<{ n: number }>(
          "select count(*)::int as n from admin_audit_log where action = 'order.review.comment.resolve' and entity_id = $1",
          [order],
        )
      )[0]!.n;
    const resolved = await post(owner, resolveUrl);
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().comment).toMatchObject({ id: first.id, resolved: true });
    expect((await post(owner, resolveUrl)).json().comment.resolved).toBe(true);
    expect(await audits()).toBe(1);
    const listed = (await get(customer, base(order))).json().reviews[0].comments;
    expect(listed.find((c: { id: string }) => c.id === first.id).resolved).toBe(true);
    // A comment of another round or order is not found through this round.
    expect((await post(owner, `${adminBase(malloryOrder)}/${review.id}/comments/${first.id}/resolve`)).statusCode).toBe(404);
    expect((await post(owner, `${adminBase(order)}/${review.id}/comments/not-a-uuid/resolve`)).statusCode).toBe(404);
  });

  it('a file shown in a round cannot be deleted by its uploader (409, says which round)', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/orders/${order}/files/${review.fileIds[0]}`,
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe('This file cannot be deleted: it is part of UI review round 1.');
  });
});

describe("another customer's order", () => {
  it('is a 404 on every customer route, leaking nothing — not even whether the round exists', async () => {
    const [review] = (await get(alice, base(aliceOrder))).json().reviews;
    const fileId = review.fileIds[0];
    const calls = [
      () => get(mallory, base(aliceOrder)),
      () => pin(mallory, aliceOrder, review.id, { fileId, x: 0.5, y: 0.5, text: 'mine now' }),
      () => decide(mallory, aliceOrder, review.id, { decision: 'approve' }),
      () => pin(mallory, aliceOrder, '00000000-0000-4000-8000-000000000000', { fileId, x: 0.5, y: 0.5, text: 'x' }),
      () => decide(mallory, aliceOrder, '00000000-0000-4000-8000-000000000000', { decision: 'approve' }),
      // Her own order with Alice's round: the round is not found there.
      () => pin(mallory, malloryOrder, review.id, { fileId, x: 0.5, y: 0.5, text: 'x' }),
      () => decide(mallory, malloryOrder, review.id, { decision: 'approve' }),
    ];
    for (const [i, call] of calls.entries()) {
      const res = await call();
      expect(res.statusCode, `call ${i}: ${res.body}`).toBe(404);
      expect(res.body, `call ${i}`).not.toContain(fileId);
      expect(res.body, `call ${i}`).not.toContain('Home and About');
      expect(res.json().message, `call ${i}`).toBe(i < 5 ? 'Order not found.' : 'Review not found.');
    }
    // An unpaid checkout draft has no reviews either; a visitor must sign in.
    expect((await get({ headers: {} }, base(aliceOrder))).statusCode).toBe(401);
    expect((await get(alice, base('ORDNOSUCH'))).statusCode).toBe(404);
    expect((await get(alice, base(aliceOrder))).json().reviews[0].state).toBe('open');
  });
});

describe('decisions', () => {
  it('asking for changes needs a comment or a pin; a round is decided once (409); no pins after', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'reviews.twice@example.com');
    const review = await openRound(orderId, { kind: 'ui', fileIds: await designs(orderId) });
    const bare = await decide(customer, orderId, review.id, { decision: 'request_changes' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toMatch(/write a comment or drop a pin/);
    expect((await decide(customer, orderId, review.id, { decision: 'maybe' })).statusCode).toBe(400);

    const first = await decide(customer, orderId, review.id, { decision: 'request_changes', comment: 'Warmer colours, please.' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().review).toMatchObject({
      state: 'changes_requested',
      decisionComment: 'Warmer colours, please.',
      decidedAt: expect.any(String),
    });
    const second = await decide(customer, orderId, review.id, { decision: 'approve' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/already decided \(changes requested\)/);
    const late = await pin(customer, orderId, review.id, { fileId: review.fileIds[0], x: 0, y: 0, text: 'one more' });
    expect(late.statusCode).toBe(409);
    expect(events.at(-1)).toMatchObject({
      name: 'review.decided',
      event: {
        orderPublicId: orderId,
        reviewId: review.id,
        decision: 'request_changes',
        kind: 'ui',
        round: 1,
        comment: 'Warmer colours, please.',
      },
    });
    // Changes asked: no due date, no stage.
    expect(await status(customer, orderId)).toMatchObject({ dueDate: null, uiApprovedAt: null, completed_steps: 0 });

    // The founder opens round 2 after changes were asked.
    expect((await openRound(orderId, { kind: 'ui', fileIds: review.fileIds })).round).toBe(2);
  });

  it('two decisions racing: exactly one wins, the other is 409, one decision record', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'reviews.race@example.com');
    const review = await openRound(orderId, { kind: 'ui', fileIds: await designs(orderId) });
    await pin(customer, orderId, review.id, { fileId: review.fileIds[0], x: 0.3, y: 0.3, text: 'smaller' });
    const results = await Promise.all([
      decide(customer, orderId, review.id, { decision: 'approve' }),
      decide(customer, orderId, review.id, { decision: 'request_changes' }),
      decide(customer, orderId, review.id, { decision: 'approve' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = results.find((r) => r.statusCode === 200)!.json().review;
    const rows = await t.deps.database.query<{ decision: string }>('select decision from order_review_decisions where review_id = $1', [
      review.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(winner.state).toBe(rows[0]!.decision === 'approve' ? 'approved' : 'changes_requested');
    expect(events.filter((e) => e.name === 'review.decided' && (e.event as { reviewId: string }).reviewId === review.id)).toHaveLength(1);
  });

  it('an approval is a record: who, when, which round, which files (with their sha-256)', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'reviews.record@example.com');
    const review = await openRound(orderId, { kind: 'final', fileIds: await designs(orderId) });
    const res = await decide(customer, orderId, review.id, { decision: 'approve', comment: 'Lovely' });
    expect(res.statusCode, res.body).toBe(200);
    const [rec] = await t.deps.database.query<{
      decision: string;
      decided_by_user_id: string;
      decided_at: Date;
      files: { id: string; name: string; sha256: string }[];
      round: number;
    }>(
      'select d.decision, d.decided_by_user_id, d.decided_at, d.files, r.round from order_review_decisions ' +
        'd join order_reviews r on r.id = d.review_id where d.review_id = $1',
      [review.id],
    );
    expect(rec).toMatchObject({ decision: 'approve', decided_by_user_id: customer.user.id, round: 1 });
    expect(new Date(rec!.decided_at).toISOString()).toBe(res.json().review.decidedAt);
    expect(rec!.files.map((f) => [f.id, f.name])).toEqual([
      [review.fileIds[0], 'home.png'],
      [review.fileIds[1], 'about.jpg'],
    ]);
    expect(rec!.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
  });
});

describe('the approval → stage rule (decision 150)', () => {
  it('a ui approval with stages 1–4 complete completes "UI Review" and sets the due date', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'reviews.stage5@example.com');
    await completeUpTo(orderId, 4);
    const review = await openRound(orderId, { kind: 'ui', fileIds: await designs(orderId) });
    const res = await decide(customer, orderId, review.id, { decision: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    const decidedAt = new Date(res.json().review.decidedAt);
    expect(await stagesOf(orderId)).toEqual([1, 2, 3, 4, 5]);
    const s = await status(customer, orderId);
    expect(s).toMatchObject({
      completed_steps: 4,
      uiApprovedAt: decidedAt.toISOString(),
      dueDate: dueDateAfter(decidedAt, t.deps.config.DELIVERY_DAYS_AFTER_UI_APPROVAL),
    });
    expect(s.dueDate).toBe(
      new Date(Date.UTC(decidedAt.getUTCFullYear(), decidedAt.getUTCMonth(), decidedAt.getUTCDate() + 28)).toISOString().slice(0, 10),
    );
    const [note] = await t.deps.database.query<{ note: string }>(
      'select s.note from order_stages s join orders o on o.id = s.order_id where o.public_id = $1 and s.stage = 5',
      [orderId],
    );
    expect(note!.note).toBe('The customer approved the UI design (review round 1).');
    // Completed through the tracker's own operation: its stage notice is written, like any other stage's (batched mail, decision 200).
    const notices = await t.deps.database.query<{ summary: string }>(
      "select n.summary from notices n join orders o on o.id = n.order_id where o.public_id = $1 and n.kind = 'stage_completed'",
      [orderId],
    );
    expect(notices.map((n) => n.summary).filter((summary) => summary.includes('UI Review'))).toHaveLength(1);
  });

  it('a ui approval before stage 4 is recorded and the stage waits; completing stage 4 brings stage 5 with it', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'reviews.waits@example.com');
    await completeUpTo(orderId, 2);
    const review = await openRound(orderId, { kind: 'ui', fileIds: await designs(orderId) });
    const res = await decide(customer, orderId, review.id, { decision: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().review.state).toBe('approved');
    expect(await stagesOf(orderId)).toEqual([1, 2]);
    const dueDate = dueDateAfter(new Date(res.json().review.decidedAt), 28);
    expect(await status(customer, orderId)).toMatchObject({ completed_steps: 1, dueDate });

    const third = await post(owner, `/api/v1/admin/orders/${orderId}/stages/next`, { note: 'UI started' });
    expect(third.json()).toMatchObject({ completedStages: 3 });
    const fourth = await post(owner, `/api/v1/admin/orders/${orderId}/stages/next`, { note: 'UI done' });
    expect(fourth.statusCode, fourth.body).toBe(200);
    // The founder's answer says what is done now: stage 5 followed stage 4.
    expect(fourth.json()).toMatchObject({ completedStages: 5 });
    expect(await stagesOf(orderId)).toEqual([1, 2, 3, 4, 5]);
    expect(await status(customer, orderId)).toMatchObject({ completed_steps: 4, dueDate });
    // The founder's audit record names the stage the founder completed.
    const [audit] = await t.deps.database.query<{ after: { stage: string } }>(
      "select after from admin_audit_log where action = 'order.stage.complete' and entity_id = $1 order by created_at desc, id desc limit 1",
      [orderId],
    );
    expect(audit!.after.stage).toBe('UI Completed');
  });

  it('a final approval completes "Final Review" once 1–11 are complete, and not before', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'reviews.final@example.com');
    await completeUpTo(orderId, 10);
    const review = await openRound(orderId, { kind: 'final', fileIds: await designs(orderId) });
    expect((await decide(customer, orderId, review.id, { decision: 'approve' })).statusCode).toBe(200);
    expect((await stagesOf(orderId)).at(-1)).toBe(10);
    // A final approval does not set the due date (only the UI approval does).
    expect((await status(customer, orderId)).dueDate).toBeNull();
    await completeNextStage(t.deps, orderId, {});
    expect((await stagesOf(orderId)).at(-1)).toBe(12);

    const other = await seedPaidOrder(t, 'reviews.final2@example.com');
    await completeUpTo(other.orderId, 11);
    const r2 = await openRound(other.orderId, { kind: 'final', fileIds: await designs(other.orderId) });
    expect((await decide(other.customer, other.orderId, r2.id, { decision: 'approve' })).statusCode).toBe(200);
    expect((await stagesOf(other.orderId)).at(-1)).toBe(12);
    expect((await status(other.customer, other.orderId)).completed_steps).toBe(11);
  });

  it('asking for changes completes nothing, and a later stage 4 does not pull stage 5 without an approval', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'reviews.nochange@example.com');
    await completeUpTo(orderId, 3);
    const review = await openRound(orderId, { kind: 'ui', fileIds: await designs(orderId) });
    expect((await decide(customer, orderId, review.id, { decision: 'request_changes', comment: 'No' })).statusCode).toBe(200);
    await completeNextStage(t.deps, orderId, {});
    expect(await stagesOf(orderId)).toEqual([1, 2, 3, 4]);
  });
});

describe('the public OpenAPI document', () => {
  it("lists the customer's review routes, not the founder's", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/v1/orders/{orderId}/reviews'] ?? {})).toEqual(['get']);
    expect(doc.paths['/api/v1/orders/{orderId}/reviews/{reviewId}/comments']?.post).toBeTruthy();
    expect(doc.paths['/api/v1/orders/{orderId}/reviews/{reviewId}/decision']?.post).toBeTruthy();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/admin/orders/{orderId}/reviews'))).toEqual([]);
  });
});
