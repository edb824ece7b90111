// JavaScript before interaction on every prerendered public page, measured in Chromium
// (docs/decisions/115): the production build (dist/web, PAGE_JS_DIST) served by the real app
// on loopback, each page opened at 390 and 1280 px in a fresh context with no input, every script
// response counted as transferred until load + network idle + 3 s (bench/page-js-measure.ts).
// Two promotion scenarios: today's (the seeded FIRSTWEB25, featured and expired) on every page,
// and a running offer (browser clock inside its window: countdown + coupon popup) on / and /pricing.
// Prints the table with the 25 KB target and writes bench/results/page-js.{json,md} with the load
// average. Exits 1 on a miss. Needs `npm run build` first.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, serveBuild } from './serve-build.ts';
import { BUDGET_BYTES, PUBLIC_PAGES, SETTLE_MS, WIDTHS, measurePages, pageJsTable, type PageJsRow } from './page-js-measure.ts';

const PORT = Number(process.env.PAGE_JS_PORT ?? 4491);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DIST = resolve(process.env.PAGE_JS_DIST ?? 'dist/web');
const load = () => loadavg().map((n) => Number(n.toFixed(2)));

if (!existsSync(join(DIST, 'prerendered', 'manifest.json'))) {
  console.error(`bench/page-js.ts needs the build: run \`npm run build\` first (${DIST}/prerendered/manifest.json)`);
  process.exit(1);
}
const LOAD_AT_START = load();
const { app } = await serveBuild(DIST, PORT);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
const rows: PageJsRow[] = [];
try {
  for (const width of WIDTHS) {
    rows.push(...(await measurePages(browser, ORIGIN, PUBLIC_PAGES, width)));
    rows.push(...(await measurePages(browser, ORIGIN, ['/', '/pricing'], width, 'offer running')));
  }
} finally {
  await browser.close();
  await app.close();
}
const LOAD_AT_END = load();
const table = [
  `JavaScript before interaction, as transferred to Chromium (body + headers of every script response, fresh context, no ` +
    `input, load + network idle + ${SETTLE_MS / 1000} s), ${new Date().toISOString()}`,
  `Load average at start ${LOAD_AT_START.join(' / ')}, at end ${LOAD_AT_END.join(' / ')} (1 / 5 / 15 min) on ${cpus().length} CPUs.`,
  '',
  pageJsTable(rows),
].join('\n');
console.log(table);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/page-js.md', `${table}\n`);
writeFileSync(
  'bench/results/page-js.json',
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      loadAverageAtStart: LOAD_AT_START,
      loadAverageAtEnd: LOAD_AT_END,
      cpus: cpus().length,
      budgetBytes: BUDGET_BYTES,
      settleMs: SETTLE_MS,
      rows,
    },
    null,
    2,
  )}\n`,
);
if (rows.some((r) => !r.withinBudget)) process.exit(1);
