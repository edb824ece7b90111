import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { BRIEF_QUESTIONS } from '../../../domain/brief.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { seedDeliveredOrder } from '../../../../tests/fixtures/delivered-orders.ts';
import { PNG } from '../../../../tests/fixtures/file-bytes.ts';
import { agencyActions } from './actions.ts';

// What waits for whom (docs/decisions/213-action-counts.md) on the real app (PGlite, or PostgreSQL
// with TEST_DB=postgres), and over-long text refused with a 400 naming the field and its limit
// (docs/decisions/212-text-limits.md, 211-structured-errors.md).

type Who = Awaited<ReturnType<typeof loginAs>>;
const OWNER = 'actions.boss@example.com';
let t: TestApp;
let filesDir: string;
let owner: Who;
let staff: Who;
let alice: Who;
let bob: Who;
let aliceOrder: string;
let bobOrder: string;

const get = (who: Who, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });
const post = (who: Who, url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: who.headers, payload });
const customerActions = async (who: Who) => {
  const res = await get(who, '/api/v1/orders/actions');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    orders: { orderId: string; stage: number; stageName: string; waiting: { kind: string; count: number }[] }[];
    total: number;
  };
};
const waitingOf = async (who: Who, orderId: string) =>
  Object.fromEntries((await customerActions(who)).orders.find((o) => o.orderId === orderId)!.waiting.map((w) => [w.kind, w.count]));
const agency = async (who: Who = owner) => {
  const res = await get(who, '/api/v1/admin/actions');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { kind: string; orderId: string; since: string; count: number }[];
};
const agencyKinds = async (orderId: string) => (await agency()).filter((i) => i.orderId === orderId).map((i) => [i.kind, i.count]);
async function upload(who: Who, url: string) {
  const form = fileForm('design.png', PNG);
  const res = await t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...form.headers }, payload: form.payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().file.id as string;
}
const completeBrief = Object.fromEntries(
  BRIEF_QUESTIONS.filter((q) => q.required).map((q) => [
    q.id,
    q.kind === 'list' ? ['Home'] : q.kind === 'choice' ? q.options![0]!.value : 'Answer',
  ]),
);

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'actions-test-'));
  t = await buildTestApp({ FILES_DIR: filesDir, ADMIN_EMAILS: OWNER });
  owner = await loginAs(t, OWNER, 'admin');
  staff = await loginAs(t, 'actions.staff@example.com', 'staff');
  ({ customer: alice, orderId: aliceOrder } = await seedPaidOrder(t, 'actions.alice@example.com'));
  ({ customer: bob, orderId: bobOrder } = await seedDeliveredOrder(t, 'actions.bob@example.com'));
}, 240_000);
afterAll(async () => {
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('GET /api/v1/orders/actions (the customer)', () => {
  it('a new order waits for its brief; the stage is the one being worked on', async () => {
    const body = await customerActions(alice);
    expect(body.orders).toEqual([{ orderId: aliceOrder, stage: 1, stageName: 'UI Discussion', waiting: [{ kind: 'brief', count: 1 }] }]);
    expect(body.total).toBe(1);
  });

  it('counts unread agency messages and open design rounds; reading and deciding clear them', async () => {
    expect((await post(owner, `/api/v1/admin/orders/${aliceOrder}/messages`, { text: 'Welcome aboard!' })).statusCode).toBe(201);
    expect((await post(owner, `/api/v1/admin/orders/${aliceOrder}/messages`, { text: 'Send us your logo.' })).statusCode).toBe(201);
    expect(await waitingOf(alice, aliceOrder)).toMatchObject({ reply: 2 });
    await get(alice, `/api/v1/orders/${aliceOrder}/messages`);
    expect(await waitingOf(alice, aliceOrder)).not.toHaveProperty('reply');

    const file = await upload(owner, `/api/v1/admin/orders/${aliceOrder}/files`);
    const round = await post(owner, `/api/v1/admin/orders/${aliceOrder}/reviews`, { kind: 'ui', title: 'Home page', fileIds: [file] });
    expect(round.statusCode, round.body).toBe(201);
    expect(await waitingOf(alice, aliceOrder)).toMatchObject({ review: 1 });
    const decided = await post(alice, `/api/v1/orders/${aliceOrder}/reviews/${round.json().review.id}/decision`, {
      decision: 'request_changes',
      comment: 'Bigger logo please.',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await waitingOf(alice, aliceOrder)).not.toHaveProperty('review');
    // The agency now owes a new round.
    expect(await agencyKinds(aliceOrder)).toContainEqual(['changes_requested', 1]);
  });

  it('a delivered order asks for a rating until it is given; nobody else’s orders are listed', async () => {
    expect(await waitingOf(bob, bobOrder)).toEqual({ rating: 1 });
    expect((await customerActions(bob)).orders.map((o) => o.orderId)).toEqual([bobOrder]);
    expect((await post(bob, `/api/v1/orders/${bobOrder}/rating`, { score: 5 })).statusCode).toBe(201);
    expect(await waitingOf(bob, bobOrder)).not.toHaveProperty('rating');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/orders/actions' })).statusCode).toBe(401);
  });
});

describe('GET /api/v1/admin/actions (the agency)', () => {
  it('a submitted brief, new customer files and unread customer messages wait for the agency until acted on, oldest first', async () => {
    const brief = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/orders/${aliceOrder}/brief`,
      headers: alice.headers,
      payload: { answers: completeBrief, submit: true },
    });
    expect(brief.statusCode, brief.body).toBe(200);
    expect(await waitingOf(alice, aliceOrder)).not.toHaveProperty('brief');
    await upload(alice, `/api/v1/orders/${aliceOrder}/files`);
    await upload(alice, `/api/v1/orders/${aliceOrder}/files`);
    expect((await post(alice, `/api/v1/orders/${aliceOrder}/messages`, { text: 'Logo attached.' })).statusCode).toBe(201);
    const kinds = await agencyKinds(aliceOrder);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['brief_submitted', 1],
        ['customer_files', 2],
        ['unread_messages', 1],
        ['changes_requested', 1],
      ]),
    );
    const items = await agency();
    const times = items.map((i) => Date.parse(i.since));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // Opening the files and the thread clears them; "UI Started" does not clear the brief: opening it
    // on the agency side does (docs/decisions/330-agency-inbox-kinds.md).
    await get(owner, `/api/v1/admin/orders/${aliceOrder}/files`);
    await get(owner, `/api/v1/admin/orders/${aliceOrder}/messages`);
    for (let i = 0; i < 2; i++) expect((await post(owner, `/api/v1/admin/orders/${aliceOrder}/stages/next`, {})).statusCode).toBe(200);
    expect(await agencyKinds(aliceOrder)).toEqual(
      expect.arrayContaining([
        ['brief_submitted', 1],
        ['changes_requested', 1],
      ]),
    );
    expect((await get(staff, `/api/v1/admin/orders/${aliceOrder}/brief`)).statusCode).toBe(200);
    expect(await agencyKinds(aliceOrder)).toEqual([['changes_requested', 1]]);
  });

  it('a support request is listed from its arrival (support_open), past its target as support_overdue, until the agency answers', async () => {
    const created = await post(bob, `/api/v1/orders/${bobOrder}/support/requests`, {
      title: 'Form broken',
      description: 'It does not send.',
      category: 'bug',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await agencyKinds(bobOrder)).toEqual([['support_open', 1]]);
    const later = await agencyActions(t.deps, new Date(Date.now() + 25 * 3600 * 1000));
    expect(later.filter((i) => i.orderId === bobOrder)).toEqual([expect.objectContaining({ kind: 'support_overdue', count: 1 })]);
    const answered = await post(staff, `/api/v1/admin/support/${created.json().request.id}/messages`, { text: 'Looking at it now.' });
    expect(answered.statusCode, answered.body).toBe(201);
    expect(await agencyKinds(bobOrder)).toEqual([]);
    expect((await agencyActions(t.deps, new Date(Date.now() + 25 * 3600 * 1000))).some((i) => i.orderId === bobOrder)).toBe(false);
  });

  it('a brief submitted after "UI Started" waits until the agency opens it', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'actions.late.brief@example.com');
    for (let i = 0; i < 2; i++) expect((await post(owner, `/api/v1/admin/orders/${orderId}/stages/next`, {})).statusCode).toBe(200);
    expect(await agencyKinds(orderId)).toEqual([]);
    const brief = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/orders/${orderId}/brief`,
      headers: customer.headers,
      payload: { answers: completeBrief, submit: true },
    });
    expect(brief.statusCode, brief.body).toBe(200);
    expect(await agencyKinds(orderId)).toEqual([['brief_submitted', 1]]);
    // The customer reading their own brief is not the agency opening it.
    expect((await get(customer, `/api/v1/orders/${orderId}/brief`)).statusCode).toBe(200);
    expect(await agencyKinds(orderId)).toEqual([['brief_submitted', 1]]);
    expect((await get(owner, `/api/v1/admin/orders/${orderId}/brief`)).statusCode).toBe(200);
    expect(await agencyKinds(orderId)).toEqual([]);
  });

  it('pins on designs and on the live site count as pins until answered or resolved, never as customer files', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'actions.pins@example.com');
    const file = await upload(owner, `/api/v1/admin/orders/${orderId}/files`);
    const design = await post(owner, `/api/v1/admin/orders/${orderId}/reviews`, { kind: 'ui', title: 'Home page', fileIds: [file] });
    expect(design.statusCode, design.body).toBe(201);
    const designRound = design.json().review.id as string;
    const pin = async (text: string) => {
      const res = await post(customer, `/api/v1/orders/${orderId}/reviews/${designRound}/comments`, { fileId: file, x: 0.2, y: 0.3, text });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().comment.id as string;
    };
    const first = await pin('Bigger logo.');
    const second = await pin('Softer blue.');

    const site = 'https://staging.pins.example';
    const live = await post(owner, `/api/v1/admin/orders/${orderId}/reviews`, {
      kind: 'final',
      title: 'The staging site',
      fileIds: [],
      previewUrl: `${site}/`,
    });
    expect(live.statusCode, live.body).toBe(201);
    const link = await post(customer, `/api/v1/orders/${orderId}/reviews/${live.json().review.id}/site-link`, {});
    expect(link.statusCode, link.body).toBe(200);
    const token = new URL(link.json().url).hash.replace('#wc-review=', '');
    const sitePin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/site-review/comments',
      headers: { authorization: `Bearer ${token}`, origin: site },
      payload: {
        pageUrl: `${site}/contact`,
        selector: 'footer > a',
        x: 0.5,
        y: 0.5,
        viewport: { width: 390, height: 844, dpr: 3 },
        text: 'The footer link is broken.',
        screenshot: `data:image/png;base64,${PNG.toString('base64')}`,
      },
    });
    expect(sitePin.statusCode, sitePin.body).toBe(201);
    expect(sitePin.json().comment.screenshotFileId).toEqual(expect.any(String));

    // Three pins to answer; the site pin's screenshot is not a customer file.
    expect(await agencyKinds(orderId)).toEqual([['pins', 3]]);
    const answer = await post(owner, `/api/v1/admin/orders/${orderId}/reviews/${designRound}/comments`, {
      replyTo: first,
      x: 0.2,
      y: 0.3,
      text: 'Done, see round 2.',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const resolved = await post(owner, `/api/v1/admin/orders/${orderId}/reviews/${designRound}/comments/${second}/resolve`, {});
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(await agencyKinds(orderId)).toEqual([['pins', 1]]);
    // A file the customer uploads is still a customer file.
    await upload(customer, `/api/v1/orders/${orderId}/files`);
    expect(await agencyKinds(orderId)).toEqual(
      expect.arrayContaining([
        ['pins', 1],
        ['customer_files', 1],
      ]),
    );
  });

  it('staff may read it; a customer may not', async () => {
    expect((await get(staff, '/api/v1/admin/actions')).statusCode).toBe(200);
    expect((await get(alice, '/api/v1/admin/actions')).statusCode).toBe(403);
  });

  it('is in the OpenAPI document for admins, with the Idempotency-Key header on POSTs', async () => {
    const doc = (await get(owner, '/api/openapi.json')).json();
    expect(doc.paths['/api/v1/admin/actions']).toHaveProperty('get');
    expect(doc.paths['/api/v1/orders/actions']).toHaveProperty('get');
    expect(doc.paths['/api/v1/admin/ratings']).toHaveProperty('get');
    const params = doc.paths['/api/v1/orders/{orderId}/messages'].post.parameters as { in: string; name: string }[];
    expect(params).toContainEqual(expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }));
  });
});

describe('text over its limit (never stored cut)', () => {
  it('a 10,000-character message, pin or round note is a 400 naming the field and the limit, in `fields` too', async () => {
    const long = 'x'.repeat(10_000);
    const message = await post(alice, `/api/v1/orders/${aliceOrder}/messages`, { text: long });
    expect(message.statusCode).toBe(400);
    expect(message.json().message).toContain('5,000');
    expect(message.json().fields).toEqual([{ path: 'text', message: 'A message can be at most 5,000 characters.' }]);

    const file = await upload(owner, `/api/v1/admin/orders/${aliceOrder}/files`);
    const note = await post(owner, `/api/v1/admin/orders/${aliceOrder}/reviews`, {
      kind: 'ui',
      title: 'Round 2',
      note: long,
      fileIds: [file],
    });
    expect(note.statusCode).toBe(400);
    expect(note.json().fields).toContainEqual({ path: 'note', message: 'A note can be at most 4000 characters.' });

    const round = await post(owner, `/api/v1/admin/orders/${aliceOrder}/reviews`, { kind: 'ui', title: 'Round 2', fileIds: [file] });
    expect(round.statusCode, round.body).toBe(201);
    const pin = await post(alice, `/api/v1/orders/${aliceOrder}/reviews/${round.json().review.id}/comments`, {
      fileId: file,
      x: 0.5,
      y: 0.5,
      text: long,
    });
    expect(pin.statusCode).toBe(400);
    expect(pin.json().fields).toContainEqual({ path: 'text', message: 'A comment can be at most 2000 characters.' });
    const thread = (await get(alice, `/api/v1/orders/${aliceOrder}/messages`)).json().messages as { text: string }[];
    expect(thread.some((m) => m.text.startsWith('xxxx'))).toBe(false);
  });

  it('a control character is a 400 with the field in `fields`, the old sentence kept', async () => {
    const res = await post(alice, `/api/v1/orders/${aliceOrder}/messages`, { text: 'bell\u0007' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Invalid body: body field "text" contains a control character/);
    expect(res.json().fields).toEqual([{ path: 'text', message: expect.stringContaining('control character') }]);
  });
});
