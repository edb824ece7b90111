import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { JPEG, PNG } from '../../../../tests/fixtures/file-bytes.ts';

// The live-site review on the real app (PGlite, or PostgreSQL with TEST_DB=postgres): the site
// link, the site-review API with its CORS, and every attack on the list of decisions 240 and 241.

type Who = { headers: Record<string, string> };
let t: TestApp;
let dir: string;
let admin: Awaited<ReturnType<typeof loginAs>>;
let alice: Awaited<ReturnType<typeof loginAs>>;
let mallory: Awaited<ReturnType<typeof loginAs>>;
let aliceOrder: string;
let malloryOrder: string;
let aliceRound: string;
let malloryRound: string;

const ALICE_SITE = 'https://staging.alice.example';
const MALLORY_SITE = 'http://127.0.0.1:5680';
const reviews = (order: string) => `/api/v1/orders/${order}/reviews`;
const adminReviews = (order: string) => `/api/v1/admin/orders/${order}/reviews`;
const post = (who: Who, url: string, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });
const COMMENTS = '/api/v1/site-review/comments';
let ip = 0;
/** Each call from its own address unless named: the per-address limit has its own test. */
const site = (
  method: 'GET' | 'POST' | 'OPTIONS',
  token: string | null,
  origin: string | null,
  payload?: unknown,
  url = COMMENTS,
  remoteAddress = `10.1.0.${++ip % 250}`,
) =>
  t.app.inject({
    method,
    url,
    remoteAddress,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(origin ? { origin } : {}) },
    ...(payload === undefined
      ? {}
      : typeof payload === 'string'
        ? { payload, headers: { authorization: `Bearer ${token}`, origin: origin ?? '', 'content-type': 'application/json' } }
        : { payload: payload as object }),
  });

async function openSiteRound(order: string, previewUrl: string, kind: 'ui' | 'final' = 'final') {
  const res = await post(admin, adminReviews(order), { kind, title: 'The staging site', fileIds: [], previewUrl });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().review.id as string;
}
async function linkFor(who: Who, order: string, round: string, asAdmin = false) {
  const res = await post(who, `${asAdmin ? adminReviews(order) : reviews(order)}/${round}/site-link`);
  expect(res.statusCode, res.body).toBe(200);
  const { url, expiresAt } = res.json() as { url: string; expiresAt: string };
  return { url, expiresAt, token: new URL(url).hash.replace('#wc-review=', '') };
}
const pinBody = (over: Record<string, unknown> = {}) => ({
  pageUrl: `${ALICE_SITE}/pricing`,
  selector: '#plans > .card:nth-child(2) > button',
  x: 0.25,
  y: 0.5,
  viewport: { width: 390, height: 844, dpr: 3 },
  browser: 'Safari iOS',
  text: 'The second button is cut off on my phone.',
  ...over,
});
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'site-review-test-'));
  // The real review.js, built as `npm run build` builds it, for GET /review.js.
  execFileSync(process.execPath, ['scripts/build-review-script.mjs'], {
    env: { ...process.env, REVIEW_SCRIPT_OUT: join(dir, 'web', 'review') },
    stdio: 'pipe',
  });
  t = await buildTestApp({ FILES_DIR: join(dir, 'files'), WEB_DIST_DIR: join(dir, 'web') });
  admin = await loginAs(t, 'site.boss@example.com', 'admin');
  ({ customer: alice, orderId: aliceOrder } = await seedPaidOrder(t, 'site.alice@example.com'));
  ({ customer: mallory, orderId: malloryOrder } = await seedPaidOrder(t, 'site.mallory@example.com'));
  aliceRound = await openSiteRound(aliceOrder, `${ALICE_SITE}/?v=2`);
  malloryRound = await openSiteRound(malloryOrder, `${MALLORY_SITE}/`);
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a round of the live site and its link', () => {
  it('opens a round with a preview URL and no files; the order keeps its origin; plain http elsewhere is refused', async () => {
    const origins = await t.deps.database.query<{ origin: string }>('select origin from order_review_origins order by origin');
    expect(origins.map((o) => o.origin)).toEqual([MALLORY_SITE, ALICE_SITE]);
    const plain = await post(admin, adminReviews(aliceOrder), {
      kind: 'ui',
      title: 'X',
      fileIds: [],
      previewUrl: 'http://staging.example.com/',
    });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toMatch(/must be https/);
    const none = await post(admin, adminReviews(aliceOrder), { kind: 'ui', title: 'X', fileIds: [] });
    expect(none.statusCode).toBe(400);
  });

  it("gives the customer and the founder a link with the token in the fragment; only the hash is stored; the founder's is audited", async () => {
    const mine = await linkFor(alice, aliceOrder, aliceRound);
    expect(mine.url).toMatch(/^https:\/\/staging\.alice\.example\/\?v=2#wc-review=[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(mine.expiresAt) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const rows = await t.deps.database.query<{ token_hash: string; author: string }>(
      'select token_hash, author from order_review_site_tokens',
    );
    expect(rows.some((r) => r.token_hash.includes(mine.token) || mine.token.includes(r.token_hash))).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);

    const owner = await linkFor(admin, aliceOrder, aliceRound, true);
    expect(owner.token).not.toBe(mine.token);
    const [audit] = await t.deps.database.query<{ entity_id: string }>(
      "select entity_id from admin_audit_log where action = 'order.review.site_link'",
    );
    expect(audit?.entity_id).toBe(aliceOrder);
  });

  it("answers another customer's order 404, a round of another order 404, a round without preview 409", async () => {
    expect((await post(mallory, `${reviews(aliceOrder)}/${aliceRound}/site-link`)).statusCode).toBe(404);
    expect((await post(alice, `${reviews(aliceOrder)}/${malloryRound}/site-link`)).statusCode).toBe(404);
    expect((await post(alice, `/api/v1/admin/orders/${aliceOrder}/reviews/${aliceRound}/site-link`)).statusCode).toBe(403);
    const noPreview = await post(admin, adminReviews(aliceOrder), { kind: 'ui', title: 'Images', fileIds: [await upload(aliceOrder)] });
    expect(noPreview.statusCode, noPreview.body).toBe(201);
    const res = await post(alice, `${reviews(aliceOrder)}/${noPreview.json().review.id}/site-link`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/no preview link/);
  });
});

async function upload(order: string) {
  const boundary = 'x-site-review';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="home.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/admin/orders/${order}/files`,
    headers: { ...admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().file.id as string;
}

describe('the site-review API', () => {
  it("lists and adds pins from the round's origin, with a CORS grant for it; the pin is in the round with its screenshot", async () => {
    const { token } = await linkFor(alice, aliceOrder, aliceRound);
    const empty = await site('GET', token, ALICE_SITE, undefined, `${COMMENTS}?page=${encodeURIComponent(`${ALICE_SITE}/pricing`)}`);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.headers['access-control-allow-origin']).toBe(ALICE_SITE);
    expect(empty.json()).toEqual({ success: true, round: { id: aliceRound, title: 'The staging site', state: 'open' }, comments: [] });

    const res = await site('POST', token, ALICE_SITE, pinBody({ screenshot: dataUrl('image/png', PNG) }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBe(ALICE_SITE);
    const comment = res.json().comment;
    expect(comment).toMatchObject({
      pageUrl: `${ALICE_SITE}/pricing`,
      selector: '#plans > .card:nth-child(2) > button',
      x: 0.25,
      y: 0.5,
      viewport: { width: 390, height: 844, dpr: 3 },
      author: 'customer',
      resolved: false,
    });
    expect(comment.screenshotFileId).toMatch(/^[0-9a-f-]{36}$/);

    const onPage = await site('GET', token, ALICE_SITE, undefined, `${COMMENTS}?page=${encodeURIComponent(`${ALICE_SITE}/pricing#top`)}`);
    expect(onPage.json().comments.map((c: { id: string }) => c.id)).toEqual([comment.id]);
    const otherPage = await site('GET', token, ALICE_SITE, undefined, `${COMMENTS}?page=${encodeURIComponent(`${ALICE_SITE}/about`)}`);
    expect(otherPage.json().comments).toEqual([]);

    // In the workspace: beside image pins, with its place; the screenshot is an order file (PNG, from the bytes).
    const round = (await t.app.inject({ method: 'GET', url: reviews(aliceOrder), headers: alice.headers }))
      .json()
      .reviews.find((r: { id: string }) => r.id === aliceRound);
    expect(round.comments).toEqual([
      expect.objectContaining({
        id: comment.id,
        fileId: null,
        pageUrl: `${ALICE_SITE}/pricing`,
        selector: comment.selector,
        viewport: { width: 390, height: 844, dpr: 3 },
        browser: 'Safari iOS',
        screenshotFileId: comment.screenshotFileId,
      }),
    ]);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${aliceOrder}/files/${comment.screenshotFileId}`,
      headers: alice.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^image\/png/);
    // The script may read the screenshot of its own round's pin (for "moved or removed").
    const shot = await site('GET', token, ALICE_SITE, undefined, `/api/v1/site-review/screenshots/${comment.screenshotFileId}`);
    expect(shot.statusCode).toBe(200);
    expect(shot.rawPayload.equals(PNG)).toBe(true);

    // The founder answers a site pin (no file: the answer takes the pin's place) and resolves it.
    const answer = await post(admin, `${adminReviews(aliceOrder)}/${aliceRound}/comments`, {
      x: 0,
      y: 0,
      text: 'Fixed on staging.',
      replyTo: comment.id,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().comment).toMatchObject({ fileId: null, pageUrl: `${ALICE_SITE}/pricing`, replyTo: comment.id });
    expect((await post(admin, `${adminReviews(aliceOrder)}/${aliceRound}/comments/${comment.id}/resolve`)).json().comment.resolved).toBe(
      true,
    );
  });

  it('keeps image pins as they were: their new fields are null', async () => {
    const { customer: carol, orderId: carolOrder } = await seedPaidOrder(t, 'site.carol@example.com');
    const fileId = await upload(carolOrder);
    const res = await post(admin, adminReviews(carolOrder), { kind: 'ui', title: 'Images', fileIds: [fileId] });
    const pin = await post(carol, `${reviews(carolOrder)}/${res.json().review.id}/comments`, {
      fileId,
      x: 0.1,
      y: 0.2,
      text: 'Bigger logo',
    });
    expect(pin.json().comment).toMatchObject({
      fileId,
      pageUrl: null,
      selector: null,
      viewport: null,
      screenshotFileId: null,
      browser: null,
    });
  });

  it("refuses a token of another round or order: it opens only its own round, and only from that round's origin", async () => {
    const theirs = await linkFor(mallory, malloryOrder, malloryRound);
    const list = await site('GET', theirs.token, MALLORY_SITE);
    expect(list.json().round.id).toBe(malloryRound);
    expect(list.json().comments).toEqual([]);
    // Mallory's token from Alice's (registered) origin: 403, no CORS grant.
    const cross = await site('POST', theirs.token, ALICE_SITE, pinBody());
    expect(cross.statusCode).toBe(403);
    expect(cross.headers['access-control-allow-origin']).toBeUndefined();
    // And Alice's page on Mallory's token from Mallory's origin: the page is not on the round's site.
    const page = await site('POST', theirs.token, MALLORY_SITE, pinBody());
    expect(page.statusCode).toBe(400);
    expect(page.json().message).toMatch(/pageUrl must be a page of http:\/\/127\.0\.0\.1:5680/);
    // A made-up token, a session token of the customer, no token: 401.
    for (const token of ['A'.repeat(43), alice.headers.authorization!.replace('Bearer ', ''), null]) {
      const res = await site('GET', token, ALICE_SITE);
      expect(res.statusCode, String(token)).toBe(401);
    }
  });

  it('refuses an expired token and the token of a decided round (revoked in the deciding transaction)', async () => {
    const old = await linkFor(alice, aliceOrder, aliceRound);
    await t.deps.database.query(
      "update order_review_site_tokens set expires_at = now() - interval '1 second' where revoked_at is " +
        'null and created_at = (select max(created_at) from order_review_site_tokens)',
    );
    expect((await site('GET', old.token, ALICE_SITE)).statusCode).toBe(401);

    const round = await openSiteRound(malloryOrder, `${MALLORY_SITE}/shop`, 'ui');
    const live = await linkFor(mallory, malloryOrder, round);
    expect((await site('GET', live.token, MALLORY_SITE)).statusCode).toBe(200);
    const decided = await post(mallory, `${reviews(malloryOrder)}/${round}/decision`, { decision: 'approve' });
    expect(decided.statusCode, decided.body).toBe(200);
    const after = await site('POST', live.token, MALLORY_SITE, pinBody({ pageUrl: `${MALLORY_SITE}/shop` }));
    expect(after.statusCode).toBe(401);
    const [row] = await t.deps.database.query<{ n: number }>(
      'select count(*)::int as n from order_review_site_tokens where review_id = $1 and revoked_at is null',
      [round],
    );
    expect(row!.n).toBe(0);
    expect((await post(mallory, `${reviews(malloryOrder)}/${round}/site-link`)).statusCode).toBe(409);
  });

  it("answers an unregistered origin 403 without a CORS grant, the preflight too; a registered origin's preflight is granted", async () => {
    const { token } = await linkFor(alice, aliceOrder, aliceRound);
    for (const origin of ['https://evil.example', 'http://staging.alice.example', null]) {
      const res = await site('POST', token, origin, pinBody());
      expect(res.statusCode, String(origin)).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const pre = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: COMMENTS,
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
    const evil = await pre('https://evil.example');
    expect(evil.statusCode).toBe(403);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const ok = await pre(ALICE_SITE);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(ALICE_SITE);
    expect(String(ok.headers['access-control-allow-headers'])).toMatch(/authorization/);
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('refuses bad input with 400/413/415 and stores nothing: a 10 KB selector, x = 1.5 or NaN, HTML, SVG or 20 MB screenshots', async () => {
    const { token } = await linkFor(alice, aliceOrder, aliceRound);
    const before = (await t.deps.database.query<{ n: number }>('select count(*)::int as n from order_review_comments'))[0]!.n;
    const files = (await t.deps.database.query<{ n: number }>('select count(*)::int as n from order_files'))[0]!.n;
    const cases: [unknown, number, RegExp][] = [
      [pinBody({ selector: 'div '.repeat(2560) }), 400, /selector can be at most 1000/],
      [pinBody({ x: 1.5 }), 400, /x must be from 0 to 1/],
      [pinBody({ y: -0.1 }), 400, /y must be from 0 to 1/],
      [pinBody({ x: 'NaN' }), 400, /x must be a number/],
      [pinBody({ viewport: { width: 0, height: 844, dpr: 3 } }), 400, /viewport.width/],
      [pinBody({ pageUrl: 'javascript:alert(1)' }), 400, /pageUrl/],
      [pinBody({ text: '' }), 400, /Write a comment/],
      [pinBody({ screenshot: dataUrl('image/png', Buffer.from('<html><script>alert(1)</script></html>')) }), 415, /not a PNG or JPEG/],
      [
        pinBody({ screenshot: dataUrl('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')) }),
        400,
        /PNG or JPEG data URL/,
      ],
      [pinBody({ screenshot: dataUrl('image/png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)])) }), 413, /at most 2 MB/],
      [pinBody({ screenshot: dataUrl('image/png', Buffer.alloc(20 * 1024 * 1024)) }), 413, /./],
    ];
    for (const [body, status, message] of cases) {
      const res = await site('POST', token, ALICE_SITE, body);
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 100)}: ${res.body.slice(0, 200)}`).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    // NaN is not JSON: the raw body is refused as malformed.
    const nan = await site('POST', token, ALICE_SITE, JSON.stringify(pinBody()).replace('"x":0.25', '"x":NaN'));
    expect(nan.statusCode).toBe(400);
    expect((await t.deps.database.query<{ n: number }>('select count(*)::int as n from order_review_comments'))[0]!.n).toBe(before);
    expect((await t.deps.database.query<{ n: number }>('select count(*)::int as n from order_files'))[0]!.n).toBe(files);
  });

  it('keeps a script in the text or the selector as text, and takes a JPEG screenshot', async () => {
    const { token } = await linkFor(alice, aliceOrder, aliceRound);
    const text = '<script>alert(document.cookie)</script> & <img src=x onerror=alert(1)>';
    const selector = 'button[data-x="<script>alert(1)</script>"]';
    const res = await site('POST', token, ALICE_SITE, pinBody({ text, selector, screenshot: dataUrl('image/jpeg', JPEG) }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().comment).toMatchObject({ text, selector });
    const listed = await site('GET', token, ALICE_SITE);
    expect(listed.json().comments.at(-1)).toMatchObject({ text, selector });
  });

  it('refuses the 21st comment in a minute from one token (100 a minute never get through), and the 61st from one address', async () => {
    const round = await openSiteRound(malloryOrder, `${MALLORY_SITE}/flood`, 'ui');
    const { token } = await linkFor(mallory, malloryOrder, round);
    const codes: number[] = [];
    for (let i = 0; i < 25; i++)
      codes.push((await site('POST', token, MALLORY_SITE, pinBody({ pageUrl: `${MALLORY_SITE}/flood`, text: `Pin ${i}` }))).statusCode);
    expect(codes.slice(0, 20).every((c) => c === 201)).toBe(true);
    expect(codes.slice(20)).toEqual([429, 429, 429, 429, 429]);

    const address = '10.9.9.9';
    const fromOne: number[] = [];
    for (let i = 0; i < 61; i++)
      fromOne.push(
        (await site('POST', `${String(i).padStart(2, '0')}${'B'.repeat(41)}`, MALLORY_SITE, pinBody(), COMMENTS, address)).statusCode,
      );
    expect(fromOne.slice(0, 60).every((c) => c === 401)).toBe(true);
    expect(fromOne[60]).toBe(429);
  });
});

describe('GET /review.js', () => {
  it('serves the script cross-origin and cacheable, and its hashed screenshot chunk', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/review.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toMatch(/public, max-age=\d+/);
    expect(res.body).toContain('wc-review');
    // The contract reaches review.js as types only (docs/decisions/337-review-toolbar-on-phones.md): no
    // zod, and the script stays small (13.5 kB with the collapsible toolbar).
    expect(res.body).not.toMatch(/ZodError|safeParse/);
    expect(res.body.length).toBeLessThanOrEqual(14 * 1024);
    const chunk = /review-shot-[A-Za-z0-9]{8}\.js/.exec(res.body)?.[0];
    expect(chunk).toBeDefined();
    const lazy = await t.app.inject({ method: 'GET', url: `/review/${chunk}` });
    expect(lazy.statusCode).toBe(200);
    expect(lazy.headers['cache-control']).toMatch(/immutable/);
    expect(lazy.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const again = await t.app.inject({ method: 'GET', url: '/review.js', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await t.app.inject({ method: 'GET', url: '/review/..%2F..%2Fpackage.json' })).statusCode).toBe(404);
  });
});
