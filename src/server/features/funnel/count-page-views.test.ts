import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';

// The real app serving a minimal web build, so public pages answer 200 as in production.
let t: BuiltApp;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'funnel-web-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FUNNEL_MAX_VIEWS_PER_MINUTE: '40' }, { dataDir: 'memory', webDistDir: dist });
  const database = await openDatabase({ dataDir: 'memory' });
  t = await buildApp(config, { database, pollMail: false });
}, 180_000);
afterAll(async () => {
  await t?.app.close();
  await t?.deps.database.close();
});

const views = () => t.deps.database.query<{ visitor: string; path: string; utm_source: string | null; referrer_host: string | null }>('select * from page_views order by id');
const visit = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-encoding': 'br, gzip', 'user-agent': 'Mozilla/5.0 test', ...headers } });
const settle = () => new Promise((r) => setTimeout(r, 50));
async function waitForViews(n: number) {
  for (let i = 0; i < 200 && (await views()).length < n; i++) await settle();
  return views();
}

describe('cookieless page-view counting', () => {
  it('counts a public page load with its utm source and referrer host, without cookie or IP', async () => {
    const r = await visit('/?utm_source=newsletter&utm_medium=email', { referer: 'https://news.example.org/issue/7' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['set-cookie']).toBeUndefined();
    const [v] = await waitForViews(1);
    expect(v).toMatchObject({ path: '/', utm_source: 'newsletter', referrer_host: 'news.example.org' });
    expect(v!.visitor).toMatch(/^[0-9a-f]{32}$/);
    const all = JSON.stringify(await t.deps.database.query('select * from page_views'));
    expect(all).not.toContain('127.0.0.1');
  });

  it('does not count a visitor with Sec-GPC: 1 or DNT: 1, nor API calls or unknown paths', async () => {
    const before = (await views()).length;
    await visit('/pricing', { 'sec-gpc': '1' });
    await visit('/pricing', { dnt: '1' });
    await visit('/api/v1/health');
    await visit('/dashboard');
    await visit('/about'); // a marker that is counted
    const after = await waitForViews(before + 1);
    await settle();
    expect((await views()).length).toBe(before + 1);
    expect(after.at(-1)!.path).toBe('/about');
  });

  it('stores forged utm values with scripts as plain, length-limited text', async () => {
    const before = (await views()).length;
    const evil = '<script>alert(1)</script>' + 'x'.repeat(500);
    await visit(`/faqs?utm_source=${encodeURIComponent(evil)}&utm_campaign=%00%01bad`);
    const rows = await waitForViews(before + 1);
    expect(rows.at(-1)!.utm_source).toBe(evil.slice(0, 100));
  });

  it('drops a flood of page loads beyond the per-minute cap', async () => {
    await Promise.all(Array.from({ length: 200 }, (_, i) => visit(`/contact?i=${i}`, { 'user-agent': `flood-${i}` })));
    await settle();
    const rows = await views();
    expect(rows.length).toBeLessThanOrEqual(40);
  });
});
