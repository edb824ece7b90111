import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, openTestDatabase, type TestApp } from '../../../../tests/helpers/test-app.ts';
import type { Database } from '../../db/client.ts';
import { pageViewCounterOf } from './count-page-views.ts';
import { visitorHasher } from './visitors.ts';

// The real app serving a minimal web build, so public pages answer 200 (and 304) as in production.
const CAP = 120;
let t: TestApp;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'funnel-web-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  t = await buildTestApp({
    WEB_DIST_DIR: dist,
    FUNNEL_MAX_VIEWS_PER_MINUTE: String(CAP),
  });
}, 180_000);
afterAll(async () => t?.close());

const views = () =>
  t.deps.database.query<{
    visitor: string;
    path: string;
    utm_source: string | null;
    utm_campaign: string | null;
    referrer_host: string | null;
  }>('select * from page_views order by id');
const visit = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: {
      accept: 'text/html',
      'accept-encoding': 'br, gzip',
      'user-agent': 'Mozilla/5.0 test',
      ...headers,
    },
  });
/** Every page view the counter has seen is stored or dropped (a condition, not a sleep). */
const settled = async () => {
  await pageViewCounterOf(t.deps.database)!.idle();
  return views();
};

describe('cookieless page-view counting', () => {
  it('counts a public page load with its utm source and referrer host, without cookie or IP', async () => {
    const r = await visit('/?utm_source=newsletter&utm_medium=email', {
      referer: 'https://news.example.org/issue/7',
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['set-cookie']).toBeUndefined();
    const [v] = await settled();
    expect(v).toMatchObject({
      path: '/',
      utm_source: 'newsletter',
      referrer_host: 'news.example.org',
    });
    expect(v!.visitor).toMatch(/^[0-9a-f]{32}$/);
    const all = JSON.stringify(await t.deps.database.query('select * from page_views'));
    expect(all).not.toContain('127.0.0.1');
  });

  it('counts a revalidated page (304 with the ETag) as a visit too', async () => {
    const first = await visit('/pricing', {
      'user-agent': 'revalidating browser',
    });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const before = (await settled()).length;
    const again = await visit('/pricing', {
      'user-agent': 'revalidating browser',
      'if-none-match': etag,
    });
    expect(again.statusCode).toBe(304);
    const after = await settled();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.path).toBe('/pricing');
  });

  it('does not count a visitor with Sec-GPC: 1 or DNT: 1, nor API calls, unknown paths or bots', async () => {
    const before = (await settled()).length;
    await visit('/pricing', { 'sec-gpc': '1' });
    await visit('/pricing', { dnt: '1' });
    await visit('/pricing', { 'user-agent': 'Googlebot/2.1' });
    await visit('/api/v1/health');
    await visit('/dashboard');
    await visit('/about'); // a marker that is counted
    const after = await settled();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.path).toBe('/about');
  });

  it('stores forged utm values with scripts as plain, length-limited text', async () => {
    const before = (await settled()).length;
    const evil = '<script>alert(1)</script>' + 'x'.repeat(500);
    await visit(`/faqs?utm_source=${encodeURIComponent(evil)}&utm_campaign=%00%01bad`);
    const rows = await settled();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)!.utm_source).toBe(evil.slice(0, 100));
    expect(rows.at(-1)!.utm_campaign).toBe('bad');
  });

  it('stores at most 50 page views of one visitor a day', async () => {
    const before = (await settled()).length;
    for (let i = 0; i < 55; i++) await visit(`/faqs?n=${i}`, { 'user-agent': 'one busy visitor' });
    const rows = await settled();
    expect(rows.length - before).toBe(50);
  });

  it('drops a flood of page loads beyond the per-minute cap, and still serves every page', async () => {
    const counter = pageViewCounterOf(t.deps.database)!;
    await counter.idle();
    const before = {
      rows: (await views()).length,
      counted: counter.counted,
      dropped: counter.dropped,
    };
    const startMinute = Math.floor(Date.now() / 60_000);
    const responses = await Promise.all(Array.from({ length: 300 }, (_, i) => visit(`/contact?i=${i}`, { 'user-agent': `flood-${i}` })));
    const minutes = Math.floor(Date.now() / 60_000) - startMinute + 1;
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    const rows = await settled();
    const counted = counter.counted - before.counted;
    // Every load was either stored or dropped, and the stored ones are exactly the rows added.
    expect(counted + counter.dropped - before.dropped).toBe(300);
    expect(rows.length - before.rows).toBe(counted);
    // At most the cap per clock minute (the flood may straddle a minute boundary).
    expect(counted).toBeLessThanOrEqual(CAP * minutes);
    expect(counter.dropped - before.dropped).toBeGreaterThanOrEqual(300 - CAP * minutes);
  });
});

describe('the daily salt', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it('rotates every UTC day (another hash for the same visitor) and is deleted after yesterday', async () => {
    const hasher = visitorHasher(database);
    const day1 = new Date('2030-05-01T10:00:00Z');
    const day2 = new Date('2030-05-02T00:00:01Z');
    const day3 = new Date('2030-05-03T09:00:00Z');
    const salt1 = await hasher.saltFor(day1);
    expect(await hasher.saltFor(new Date('2030-05-01T23:59:59Z'))).toBe(salt1);
    const salt2 = await hasher.saltFor(day2);
    expect(salt2).not.toBe(salt1);
    expect(hasher.hash(salt2, '203.0.113.7', 'Firefox')).not.toBe(hasher.hash(salt1, '203.0.113.7', 'Firefox'));
    // Yesterday's salt is kept (a lead at 00:05 still finds last night's visit)…
    expect(
      (await database.query<{ day: string }>(`select to_char(day, 'YYYY-MM-DD') as day from funnel_salts order by day`)).map((r) => r.day),
    ).toEqual(['2030-05-01', '2030-05-02']);
    // …and the day after, the salt of two days ago is gone, from the table and from memory.
    await hasher.saltFor(day3);
    expect(
      (await database.query<{ day: string }>(`select to_char(day, 'YYYY-MM-DD') as day from funnel_salts order by day`)).map((r) => r.day),
    ).toEqual(['2030-05-02', '2030-05-03']);
    expect(await hasher.existingSalt('2030-05-01')).toBeNull();
    expect(await hasher.existingSalt('2030-05-02')).toBe(salt2);
  });
});
