// Every signed-in screen usable within a second (docs/decisions/338-web-reads-and-folder-rules.md): each
// screen opened cold (a new browser context: no cache, no query cache) in Chromium against the built
// app (dist/server/main.js and dist/web, `npm run build` first) on a PGlite copy seeded with a customer
// whose order is delivered; recorded per screen: the API requests made before its main content shows,
// the time until that content is visible, and how many API requests it waits on one after another
// (requests in series). That last figure is causal, not read from timings: each screen is opened again
// with every API answer held back DELAY_MS by the browser, and the content then comes later by one
// DELAY_MS per request on its longest chain (roundsInSeries). Writes bench/results/screens.md with the
// load average of the run. Targets: median ≤ 1.0 s per screen on a quiet machine, no screen waiting on
// more than 2 requests in series.
//   node --import tsx bench/screens.ts [runs per screen, default 5]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { seedDeliveredOrder } from '../tests/fixtures/delivered-orders.ts';
import { loginAs } from '../tests/helpers/test-app.ts';
import { startServer } from '../tests/api/runtime/server-process.ts';

const OWNER = 'bench-owner@example.com';
const RUNS = Number(process.argv[2] ?? 5);
const TARGET_MS = 1000;
const TARGET_SERIES = 2;
/** How long each API answer is held back in the runs that count the requests in series. */
const DELAY_MS = 1000;
/** Opens per screen with the answers held back: the median of 3 is steady at a delay this long. */
const DELAYED_RUNS = 3;

interface Screen {
  name: string;
  /** Who opens it. */
  as: 'customer' | 'owner';
  path: string;
  /** Opens something within the page first (a tab), timed from the click. */
  click?: (page: Page) => Promise<void>;
  /**
   * The screen's main content, visible: an element matching `css` (with `text` in it, when given).
   * Checked in the page at every animation frame: Playwright's own wait polls at growing intervals
   * (up to 500 ms), which showed as a second mode 0.45 s slower in the first runs of this bench.
   */
  content: { css: string; text?: string };
}

const screens = (orderId: string, adminOrderId: string): Screen[] => [
  { name: 'dashboard', as: 'customer', path: '/dashboard', content: { css: '[role=tabpanel]', text: 'bench-screens@example.com' } },
  {
    name: 'My Orders',
    as: 'customer',
    path: '/dashboard',
    click: (page) => page.getByRole('tab', { name: 'My Orders' }).click(),
    content: { css: `[role=tabpanel] a[href="/status/${orderId}"]` },
  },
  { name: "an order's status", as: 'customer', path: `/status/${orderId}`, content: { css: '[data-testid=tracker]' } },
  { name: 'workspace (brief)', as: 'customer', path: `/status/${orderId}?tab=brief`, content: { css: '[data-question]' } },
  { name: 'Support tab', as: 'customer', path: `/status/${orderId}?tab=support`, content: { css: '[data-testid=support-until]' } },
  { name: 'Payments tab', as: 'customer', path: `/status/${orderId}?tab=payments`, content: { css: '[data-testid=statement-totals]' } },
  { name: 'admin overview', as: 'owner', path: '/admin', content: { css: 'a[href="/admin/leads"]', text: 'New leads and messages' } },
  { name: 'an admin order', as: 'owner', path: `/admin/orders/${adminOrderId}`, content: { css: '[data-testid=admin-delivered-on]' } },
  { name: '/admin/tax', as: 'owner', path: '/admin/tax', content: { css: 'table, [data-testid=test-documents-left-out]' } },
  {
    name: '/admin/support',
    as: 'owner',
    path: '/admin/support',
    content: { css: '[data-testid=support-queue-row], [data-testid=support-queue-empty]' },
  },
];

interface Request {
  what: string;
  start: number;
  end: number;
}

/**
 * How many API requests a screen waited on one after another: with every answer held back `delayMs`,
 * the content comes later by `delayMs` per request on its longest chain, whatever ran beside it
 * (requests side by side are held back together). Rounded to the nearest whole request, so noise of
 * up to half the delay in either median does not change the count.
 */
export function roundsInSeries(plainMedianMs: number, delayedMedianMs: number, delayMs = DELAY_MS): number {
  return Math.max(0, Math.round((delayedMedianMs - plainMedianMs) / delayMs));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function prepare() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-screens-'));
  const env = { DATA_DIR: join(dir, 'app') };
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_STEP_UP: 'off', ADMIN_EMAILS: OWNER, ...env },
    { dataDir: env.DATA_DIR, webDistDir: '/nonexistent' },
  );
  const database = await openDatabase({ dataDir: env.DATA_DIR });
  const built = await buildApp(config, { database, pollMail: false });
  const { customer, orderId } = await seedDeliveredOrder(built, 'bench-screens@example.com');
  const owner = await loginAs(built, OWNER, 'admin');
  await built.app.close();
  await database.close();
  return { dir, env, customerToken: customer.token, ownerToken: owner.token, orderId, adminOrderId: orderId };
}

async function main() {
  const load = [loadavg()[0]!];
  const prepared = await prepare();
  const serverEnv = { ...prepared.env, ADMIN_EMAILS: OWNER, ADMIN_STEP_UP: 'off', WEB_DIST_DIR: 'dist/web', LOG_LEVEL: 'error' };
  const server = await startServer('dist/server/main.js', serverEnv);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const rows: {
    screen: Screen;
    ms: number[];
    delayedMs: number[];
    requests: string[];
    series: number;
    failed?: string;
    raw: Request[][];
    delayedRaw: Request[][];
  }[] = [];
  /** One cold open of a screen: the time to its content and the API requests made before it. */
  const open = async (screen: Screen, delayed: boolean) => {
    // Cold: a new context has an empty HTTP cache and the app an empty query cache.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const token = screen.as === 'owner' ? prepared.ownerToken : prepared.customerToken;
    await context.addInitScript((t) => localStorage.setItem('token', t), token);
    const page = await context.newPage();
    const requests: Request[] = [];
    let t0 = Date.now();
    // The browser's own timings (epoch ms): Playwright's events reach this process in batches.
    const done = (r: import('@playwright/test').Request) => {
      const u = new URL(r.url());
      if (!u.pathname.startsWith('/api/')) return;
      const t = r.timing();
      requests.push({ what: `${r.method()} ${u.pathname}${u.search}`, start: t.startTime, end: t.startTime + Math.max(0, t.responseEnd) });
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    try {
      if (screen.click) {
        await page.goto(`${server.url}${screen.path}`);
        await page.locator('[role=tabpanel]').first().waitFor();
        await page.waitForLoadState('networkidle');
        requests.length = 0;
      }
      // Held back from here on only: a tab's click is timed alone, like its plain runs.
      if (delayed) await page.route('**/api/**', async (route) => setTimeout(() => void route.continue().catch(() => {}), DELAY_MS));
      t0 = Date.now();
      if (screen.click) await screen.click(page);
      else await page.goto(`${server.url}${screen.path}`, { waitUntil: 'commit' });
      await page.waitForFunction(
        ({ css, text }) =>
          [...document.querySelectorAll(css)].some(
            (el) =>
              el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
              el.getBoundingClientRect().width > 0 &&
              (!text || (el.textContent ?? '').includes(text)),
          ),
        screen.content,
        { polling: 'raf', timeout: 30_000 },
      );
      const visibleAt = Date.now();
      const before = requests
        .filter((r) => r.start >= t0 && r.start <= visibleAt)
        .map((r) => ({ ...r, start: r.start - t0, end: r.end - t0 }));
      return { ms: visibleAt - t0, before };
    } catch (err) {
      await page.screenshot({ path: join(prepared.dir, `${screen.name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
      throw err;
    } finally {
      await context.close();
    }
  };
  try {
    // BENCH_SCREENS=brief,support: only the screens whose names contain one of these (a look at a few).
    const only = process.env.BENCH_SCREENS?.split(',').filter(Boolean);
    for (const screen of screens(prepared.orderId, prepared.adminOrderId).filter((x) => !only || only.some((o) => x.name.includes(o)))) {
      const row: (typeof rows)[number] = { screen, ms: [], delayedMs: [], requests: [], series: 0, raw: [], delayedRaw: [] };
      try {
        for (let run = 0; run < RUNS; run++) {
          const { ms, before } = await open(screen, false);
          row.ms.push(ms);
          row.raw.push(before);
          if (run === 0) row.requests = before.map((r) => r.what.replaceAll(prepared.orderId, '{orderId}'));
        }
        for (let run = 0; run < DELAYED_RUNS; run++) {
          const { ms, before } = await open(screen, true);
          row.delayedMs.push(ms);
          row.delayedRaw.push(before);
        }
        row.series = roundsInSeries(median(row.ms), median(row.delayedMs));
      } catch (err) {
        row.failed = (err as Error).message.split('\n')[0];
      }
      rows.push(row);
      const failed = row.failed ? ` — FAILED: ${row.failed}` : '';
      console.log(
        `${screen.name}: median ${row.ms.length ? median(row.ms) : '-'} ms, held back ${row.delayedMs.length ? median(row.delayedMs) : '-'} ms, ` +
          `${row.requests.length} requests, ${row.series} in series${failed}`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
    load.push(loadavg()[0]!);
    rmSync(prepared.dir, { recursive: true, force: true });
  }

  // The bench itself (Chromium and the server) loads the machine: only the load before it says whether others did.
  const busy = load[0]! > cpus().length * 0.75;
  const lines = [
    '# Signed-in screens, cold (bench/screens.ts)',
    '',
    `Run ${new Date().toISOString()}, ${RUNS} cold opens per screen, Chromium 1280×900, built app on PGlite, ${cpus().length} cores.`,
    `Load average (1 min) at start ${load[0]!.toFixed(2)}, at end ${load[1]!.toFixed(2)}: ${
      busy ? '**a busy machine** (other sessions building and testing): times are not a quiet-machine figure' : 'a quiet machine'
    }.`,
    `Targets: median ≤ ${TARGET_MS} ms on a quiet machine; no screen waiting on more than ${TARGET_SERIES} requests in series.`,
    `"In series": each screen opened ${DELAYED_RUNS} more times with every API answer held back ${DELAY_MS} ms; ` +
      `the content then came later by ${DELAY_MS} ms per request it waited on one after another ` +
      `(the difference of the medians over ${DELAY_MS} ms, rounded).`,
    'The raw timings (ms from the navigation or the click) are in screens.json.',
    '',
    '| screen | median ms | runs (ms) | held back: median ms | API requests before the content shows | in series | met |',
    '| --- | ---: | --- | ---: | --- | ---: | --- |',
    ...rows.map((r) => {
      const m = r.ms.length ? median(r.ms) : NaN;
      const met = !r.failed && r.series <= TARGET_SERIES && m <= TARGET_MS;
      const requests = r.requests.map((q) => `\`${q}\``).join('<br>') || '—';
      const verdict = met ? 'yes' : r.series <= TARGET_SERIES && !r.failed ? 'series yes, time no' : 'no';
      const held = r.delayedMs.length ? median(r.delayedMs) : '-';
      return `| ${r.screen.name} | ${r.failed ? `failed: ${r.failed}` : m} | ${r.ms.join(', ')} | ${held} | ${requests} | ${r.series} | ${verdict} |`;
    }),
    '',
  ];
  writeFileSync('bench/results/screens.md', lines.join('\n'));
  const raw = {
    load,
    runs: RUNS,
    delayMs: DELAY_MS,
    rows: rows.map((r) => ({ screen: r.screen.name, ms: r.ms, delayedMs: r.delayedMs, raw: r.raw, delayedRaw: r.delayedRaw })),
  };
  writeFileSync('bench/results/screens.json', `${JSON.stringify(raw, null, 1)}\n`);
  console.log(lines.join('\n'));
}

// Run as a script (not when a test imports roundsInSeries).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
