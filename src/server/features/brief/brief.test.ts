import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { openCheckout } from '../../../../tests/helpers/test-checkout.ts';
import { BRIEF_LIMITS, BRIEF_QUESTIONS } from '../../../domain/brief.ts';
import { briefPutBody } from '../../../contract/brief.ts';
import { applyTextPolicy } from '../../../contract/text-policy.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { LOCKED_MESSAGE } from './brief.ts';

// The brief of an order, customer and founder sides (decision 145).

type Who = { headers: Record<string, string> };
let t: TestApp;
let admin: Who;
let owner: Who;
let orderId: string;
let stranger: Who;
let strangersOrder: string;

const url = (id: string) => `/api/v1/orders/${encodeURIComponent(id)}/brief`;
const get = (who: Who | null, id = orderId) => t.app.inject({ method: 'GET', url: url(id), headers: who?.headers ?? {} });
const put = (who: Who | null, body: unknown, id = orderId) =>
  t.app.inject({ method: 'PUT', url: url(id), headers: who?.headers ?? {}, payload: body as object });
const adminGet = (who: Who, id = orderId) =>
  t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${encodeURIComponent(id)}/brief`, headers: who.headers });

const complete = {
  businessName: 'Lakeside Bakery',
  businessDescription: 'We bake bread\nand cakes.',
  pages: ['Home', 'Menu', 'Contact'],
  domain: 'has',
  contentReadiness: 'partly',
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await loginAs(t, 'brief.boss@example.com', 'admin');
  const o = await seedPaidOrder(t, 'brief.owner@example.com');
  owner = o.customer;
  orderId = o.orderId;
  const s = await seedPaidOrder(t, 'brief.stranger@example.com');
  stranger = s.customer;
  strangersOrder = s.orderId;
});
afterAll(() => t.close());

describe('who may read and write a brief', () => {
  it('answers 404 for another customer’s order, an unknown id and an unpaid checkout, on every route; 401 without a session', async () => {
    for (const [who, id] of [
      [stranger, orderId],
      [owner, strangersOrder],
      [owner, 'ORDNOSUCHORDER'],
      [admin, orderId], // an admin on the customer route: not their order
    ] as const) {
      for (const res of [await get(who, id), await put(who, { answers: {} }, id)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Order not found.', code: 'NOT_FOUND' });
      }
    }
    expect((await get(null)).statusCode).toBe(401);
    expect((await put(null, { answers: {} })).statusCode).toBe(401);
  });

  it('has no brief before the advance is paid: the open checkout is nobody’s order yet (404, also for the founder)', async () => {
    const buyer = await loginAs(t, 'brief.unpaid@example.com');
    await openCheckout(t, buyer, { kind: 'advance' });
    const [draft] = await t.deps.database.query<{ public_id: string }>(
      `select o.public_id from orders o join users u on u.id = o.user_id where u.email = 'brief.unpaid@example.com'`,
    );
    expect((await get(buyer, draft!.public_id)).statusCode).toBe(404);
    expect((await put(buyer, { answers: { businessName: 'Early' } }, draft!.public_id)).statusCode).toBe(404);
    expect((await adminGet(admin, draft!.public_id)).statusCode).toBe(404);
  });

  it('the public OpenAPI document lists the customer routes, not the founder’s', async () => {
    const visitorDoc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(visitorDoc.paths['/api/v1/orders/{orderId}/brief'])).toEqual(expect.arrayContaining(['get', 'put']));
    expect(visitorDoc.paths['/api/v1/admin/orders/{id}/brief']).toBeUndefined();
    const adminDoc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: admin.headers })).json();
    expect(adminDoc.paths['/api/v1/admin/orders/{id}/brief']).toHaveProperty('get');
  });

  it('the founder route refuses customers (403) and reads any paid order', async () => {
    expect((await adminGet(owner)).statusCode).toBe(403);
    const res = await adminGet(admin, strangersOrder);
    expect(res.statusCode).toBe(200);
    expect(res.json().brief).toBeNull();
  });
});

describe('filling the brief', () => {
  it('lists the questions as data and no brief yet', async () => {
    const res = await get(owner);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.brief).toBeNull();
    expect(body.locked).toBe(false);
    expect(body.questions.map((q: { id: string }) => q.id)).toEqual(BRIEF_QUESTIONS.map((q) => q.id));
    expect(body.questions.find((q: { id: string }) => q.id === 'domain')).toMatchObject({
      kind: 'choice',
      options: [{ value: 'has' }, { value: 'needs' }],
    });
  });

  it('"I already have a domain" has a follow-up for the domain; the missing-answers message ends once ("…ready?", not "…ready?.")', async () => {
    const questions = (await get(owner)).json().questions as { id: string; followUpOf?: unknown }[];
    expect(questions.find((q) => q.id === 'domainName')).toMatchObject({
      kind: 'text',
      required: false,
      followUpOf: { id: 'domain', value: 'has' },
    });
    const saved = await put(owner, { answers: { domain: 'has', domainName: ' lakesidebakery.in ' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().brief.answers).toEqual({ domain: 'has', domainName: 'lakesidebakery.in' });
    const missing = await put(owner, { answers: { businessName: 'Lakeside Bakery' }, submit: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/Is your content \(text, photos, logo\) ready\?$/);
  });

  it('saves a draft as typed, tidied: trimmed, empty answers dropped, bare web addresses given https', async () => {
    const res = await put(owner, {
      answers: {
        businessName: '  Lakeside Bakery ',
        audience: '',
        pages: ['Home', ' ', 'Menu '],
        likedWebsites: ['example.com/shop', 'http://bakery.example.org'],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().brief).toEqual({
      answers: {
        businessName: 'Lakeside Bakery',
        pages: ['Home', 'Menu'],
        likedWebsites: ['https://example.com/shop', 'http://bakery.example.org/'],
      },
      submittedAt: null,
    });
    // The next save replaces the answers (the form sends everything it holds).
    const next = await put(owner, { answers: { businessName: 'Lakeside Bakery', pages: ['Home'] } });
    expect(next.json().brief.answers).toEqual({ businessName: 'Lakeside Bakery', pages: ['Home'] });
    expect((await get(owner)).json().brief.answers).toEqual({ businessName: 'Lakeside Bakery', pages: ['Home'] });
  });

  it('refuses unknown questions, wrong kinds, unknown choices and bad addresses with a clear 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ favouriteFood: 'Pizza' }, /Unknown brief question "favouriteFood"/],
      [{ __proto__x: 'x' }, /Unknown brief question/],
      [{ pages: 'Home, Menu' }, /"Pages you want.*" takes a list/],
      [{ businessName: ['A', 'B'] }, /"Business name" takes text, not a list/],
      [{ domain: 'maybe' }, /"Domain name" must be one of: has, needs/],
      [{ likedWebsites: ['javascript:alert(1)'] }, /not a web address/],
      [{ likedWebsites: ['ftp://files.example.com'] }, /not a web address/],
      [{ likedWebsites: ['not a site'] }, /not a web address/],
      [{ pages: Array.from({ length: BRIEF_LIMITS.items + 1 }, (_, i) => `Page ${i}`) }, /at most 30 entries/],
      [{ businessName: 'Two\nlines' }, /"Business name" must be a single line/],
    ];
    for (const [answers, message] of cases) {
      const res = await put(owner, { answers });
      expect(res.statusCode, JSON.stringify(answers)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await put(owner, { answers: 'everything' })).statusCode).toBe(400);
    expect((await put(owner, { answers: { businessName: 7 } })).statusCode).toBe(400);
    expect((await put(owner, { answers: {}, submit: 'yes' })).statusCode).toBe(400);
    // Nothing of the refused saves was stored.
    expect((await get(owner)).json().brief.answers).toEqual({ businessName: 'Lakeside Bakery', pages: ['Home'] });
  });

  it('keeps HTML as plain text, refuses NUL and control characters, bounds the size (10 KB refused)', async () => {
    const html = '<script>alert(1)</script><b onmouseover="x()">bold</b>';
    const saved = await put(owner, { answers: { businessDescription: html, anythingElse: 'Line one\r\n\tindented' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().brief.answers).toMatchObject({ businessDescription: html, anythingElse: 'Line one\r\n\tindented' });
    expect(saved.headers['content-type']).toMatch(/^application\/json/);

    for (const answers of [
      { businessDescription: 'a\u0000b' },
      { pages: ['Home\u0000'] },
      { businessName: 'a\u001bb' },
      { anythingElse: 'bell\u0007' },
      { pages: ['Tab\there'] },
    ]) {
      const res = await put(owner, { answers });
      expect(res.statusCode, JSON.stringify(answers)).toBe(400);
    }
    expect((await put(owner, { answers: { businessDescription: 'x'.repeat(10 * 1024) } })).statusCode).toBe(400);
    expect((await put(owner, { answers: { businessDescription: 'x'.repeat(BRIEF_LIMITS.multiline + 1) } })).json().message).toMatch(
      /at most 5000 characters/,
    );
    expect((await put(owner, { answers: { businessDescription: 'x'.repeat(BRIEF_LIMITS.multiline) } })).statusCode).toBe(200);
    expect((await put(owner, { answers: { businessName: 'x'.repeat(BRIEF_LIMITS.text + 1) } })).statusCode).toBe(400);
  });

  it('the text policy walks the answers record and its union: paragraphs may break lines, list items and keys may not', () => {
    const schema = briefPutBody;
    expect(applyTextPolicy({ answers: { anythingElse: 'a\nb' } }, schema).ok).toBe(true);
    expect(applyTextPolicy({ answers: { pages: ['a\nb'] } }, schema)).toMatchObject({ ok: false, path: 'answers.pages[0]' });
    expect(applyTextPolicy({ answers: { 'bad\nkey': 'x' } }, schema).ok).toBe(false);
    expect(applyTextPolicy({ answers: { anythingElse: 'a\u0000b' } }, schema)).toMatchObject({ ok: false, path: 'answers.anythingElse' });
  });
});

describe('submitting, and the lock at "UI Started"', () => {
  it('needs the required questions, submits once, and keeps the first submission time', async () => {
    const missing = await put(owner, { answers: { businessName: 'Lakeside Bakery' }, submit: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/^Before sending the brief, please answer: What does your business do\?; Pages you want/);
    expect((await get(owner)).json().brief.submittedAt).toBeNull();

    // "Brief pending" in the back office until it is in.
    const rowOf = async () => {
      const list = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders?q=${orderId}`, headers: admin.headers });
      return list.json().items.find((o: { id: string }) => o.id === orderId);
    };
    expect((await rowOf()).briefPending).toBe(true);

    const first = await put(owner, { answers: complete, submit: true });
    expect(first.statusCode).toBe(200);
    const submittedAt = first.json().brief.submittedAt as string;
    expect(Date.parse(submittedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await rowOf()).briefPending).toBe(false);
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}`, headers: admin.headers });
    expect(detail.json().order.briefPending).toBe(false);

    // Submitting twice: the edits are saved, the submission time stays the first one.
    const again = await put(owner, { answers: { ...complete, businessName: 'Lakeside Bakery & Café' }, submit: true });
    expect(again.statusCode).toBe(200);
    expect(again.json().brief).toEqual({ answers: { ...complete, businessName: 'Lakeside Bakery & Café' }, submittedAt });
    // Once submitted, a save without `submit` is still held to the required questions.
    const gutted = await put(owner, { answers: { businessName: 'Lakeside Bakery' } });
    expect(gutted.statusCode).toBe(400);
    const edited = await put(owner, { answers: { ...complete, audience: 'Neighbours' } });
    expect(edited.json().brief).toEqual({ answers: { ...complete, audience: 'Neighbours' }, submittedAt });

    // The founder reads the same.
    const agencyRead = await adminGet(admin);
    expect(agencyRead.statusCode).toBe(200);
    expect(agencyRead.json().brief).toEqual({ answers: { ...complete, audience: 'Neighbours' }, submittedAt });
  });

  it('is read-only once "UI Started" is completed: 409 with a clear message, still readable', async () => {
    const next = () =>
      t.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${orderId}/stages/next`, headers: admin.headers, payload: {} });
    expect((await next()).json().completedStages).toBe(2); // UI Discussion: still editable
    expect((await put(owner, { answers: complete })).statusCode).toBe(200);
    expect((await next()).json().completedStages).toBe(3); // UI Started
    const locked = await put(owner, { answers: { ...complete, businessName: 'Too late' } });
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toEqual({ success: false, message: LOCKED_MESSAGE, code: 'CONFLICT' });
    expect((await put(owner, { answers: complete, submit: true })).statusCode).toBe(409);
    const read = (await get(owner)).json();
    expect(read.locked).toBe(true);
    expect(read.brief.answers).toEqual(complete);
    expect((await adminGet(admin)).json().locked).toBe(true);
  });

  it(
    '"UI Started" without a brief locks nothing: still "brief pending", the customer can still send it, ' +
      'and then it locks (docs/decisions/215-brief-lock.md)',
    async () => {
      const o = await seedPaidOrder(t, 'brief.late@example.com');
      for (let i = 0; i < 2; i++)
        await t.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${o.orderId}/stages/next`, headers: admin.headers, payload: {} });
      const detail = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${o.orderId}`, headers: admin.headers });
      expect(detail.json().order.completedStages).toBe(3);
      expect(detail.json().order.briefPending).toBe(true);
      const list = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders?q=${o.orderId}`, headers: admin.headers });
      expect(list.json().items.find((r: { id: string }) => r.id === o.orderId).briefPending).toBe(true);
      const empty = (await get(o.customer, o.orderId)).json();
      expect(empty.locked).toBe(false);
      expect((await put(o.customer, { answers: complete }, o.orderId)).statusCode).toBe(200);
      const sent = await put(o.customer, { answers: complete, submit: true }, o.orderId);
      expect(sent.statusCode, sent.body).toBe(200);
      // Sent after "UI Started": from now on it is locked like any submitted brief.
      expect((await get(o.customer, o.orderId)).json().locked).toBe(true);
      expect((await put(o.customer, { answers: { ...complete, businessName: 'Later' } }, o.orderId)).statusCode).toBe(409);
    },
  );
});

describe('partial saves: PATCH changes only the answers it names (docs/decisions/270-brief-partial-saves.md)', () => {
  const patch = (who: Who, body: unknown, id: string) =>
    t.app.inject({ method: 'PATCH', url: url(id), headers: who.headers, payload: body as object });

  it('two tabs saving different answers, at once or one after the other, both keep theirs; an empty answer clears only itself', async () => {
    const o = await seedPaidOrder(t, 'brief.twotabs@example.com');
    expect((await patch(o.customer, { answers: { businessName: 'Two Tabs Tea' } }, o.orderId)).statusCode).toBe(200);
    // Tab 1 and tab 2, each sending only what changed in it — at the same moment.
    const [one, two] = await Promise.all([
      patch(o.customer, { answers: { audience: 'Tea lovers' } }, o.orderId),
      patch(o.customer, { answers: { coloursAndFonts: 'Green and cream, a serif heading' } }, o.orderId),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    const kept = { businessName: 'Two Tabs Tea', audience: 'Tea lovers', coloursAndFonts: 'Green and cream, a serif heading' };
    expect((await get(o.customer, o.orderId)).json().brief.answers).toEqual(kept);
    // Then one after the other: tab 1 changes its answer again, tab 2's stays.
    const later = await patch(o.customer, { answers: { audience: '  Tea lovers and cafés ' } }, o.orderId);
    expect(later.json().brief.answers).toEqual({ ...kept, audience: 'Tea lovers and cafés' });
    // Clearing one answer ("" or an empty list) leaves the others.
    const cleared = await patch(o.customer, { answers: { audience: '', pages: [] } }, o.orderId);
    expect(cleared.json().brief.answers).toEqual({ businessName: 'Two Tabs Tea', coloursAndFonts: 'Green and cream, a serif heading' });
  });

  it('checks each answer as PUT does (400 naming the question), submits against the merged answers, and is locked like PUT', async () => {
    const o = await seedPaidOrder(t, 'brief.patchrules@example.com');
    const bad = await patch(o.customer, { answers: { nope: 'x' } }, o.orderId);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Unknown brief question "nope"/);
    expect(
      (await patch(o.customer, { answers: { businessName: 'Lakeside Bakery', businessDescription: 'Bread.' } }, o.orderId)).statusCode,
    ).toBe(200);
    const early = await patch(o.customer, { answers: { pages: ['Home'] }, submit: true }, o.orderId);
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toMatch(/^Before sending the brief, please answer: /);
    const sent = await patch(
      o.customer,
      { answers: { pages: ['Home'], domain: 'has', contentReadiness: 'partly' }, submit: true },
      o.orderId,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().brief.submittedAt).not.toBeNull();
    // Submitted: clearing a required answer is refused, the stored brief stays whole.
    expect((await patch(o.customer, { answers: { businessName: '' } }, o.orderId)).statusCode).toBe(400);
    // A whole brief sent by PATCH works as PUT did (old clients of the form keep working).
    expect((await patch(o.customer, { answers: complete }, o.orderId)).json().brief.answers).toEqual(complete);
    expect((await patch(stranger, { answers: { audience: 'x' } }, o.orderId)).statusCode).toBe(404);
    for (let i = 0; i < 2; i++)
      await t.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${o.orderId}/stages/next`, headers: admin.headers, payload: {} });
    expect((await patch(o.customer, { answers: { audience: 'Too late' } }, o.orderId)).statusCode).toBe(409);
  });
});
