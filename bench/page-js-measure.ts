// JavaScript before interaction as the browser sees it (docs/decisions/115): a
// fresh browser context opens the page and does nothing — no click, no key, no scroll — until the
// load event, network idle and 3 s more; every script response in that time is counted at what
// crossed the wire (response body as transferred, i.e. compressed, plus headers:
// `request.sizes()`). Dynamic imports at load count like any script: that is what a static
// reading of the HTML missed (3.7 KB named, 66–71 KB loaded). Used by bench/page-js.ts and by
// tests/e2e/public-page-js.spec.ts.
import type { Browser, Page, Response } from '@playwright/test';

/** Every prerendered public page (the popup opens on each while an offer runs). */
export const PUBLIC_PAGES = [
  '/',
  '/pricing',
  '/about',
  '/faqs',
  '/privacypolicy',
  '/termsandconditions',
  '/referAndEarn',
  '/contact',
  '/getAllRecommendations',
];
/** Phone and desktop. */
export const WIDTHS = [390, 1280] as const;
/** Per page and width, transferred bytes of script (body + headers). */
export const BUDGET_BYTES = 25 * 1024;
/** Waited after network idle: a timer or an observer that loads code a moment later is caught. */
export const SETTLE_MS = 3000;

export interface PageJsRow {
  page: string;
  width: number;
  /** 'today' (the seeded FIRSTWEB25, featured and expired: the banner says 'Offer expired!') or
   * 'offer running' (the browser's clock inside FIRSTWEB25's window: countdown and popup). */
  scenario: 'today' | 'offer running';
  bytes: number;
  scripts: { path: string; bytes: number }[];
  withinBudget: boolean;
}

/** A moment inside the seeded FIRSTWEB25's window (it ends 2025-01-31 23:59:59 UTC). */
export const OFFER_RUNNING_AT = new Date('2025-01-30T12:00:00Z');

/** Opens `origin + path` in a fresh context at `width` and counts its scripts until settled. */
export async function measurePage(
  browser: Browser,
  origin: string,
  path: string,
  width: number,
  scenario: PageJsRow['scenario'] = 'today',
  /** Runs once settled, before the context closes: e.g. that the popup did open. */
  settled?: (page: Page) => Promise<void>,
): Promise<PageJsRow> {
  const context = await browser.newContext({
    viewport: { width, height: width < 640 ? 844 : 800 },
    isMobile: width < 640,
    hasTouch: width < 640,
  });
  try {
    const page = await context.newPage();
    if (scenario === 'offer running') await page.clock.install({ time: OFFER_RUNNING_AT });
    const responses: Response[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') responses.push(r);
    });
    await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(SETTLE_MS);
    await page.waitForLoadState('networkidle');
    await settled?.(page);
    const scripts = await Promise.all(
      responses.map(async (r) => {
        await r.finished();
        const s = await r.request().sizes();
        return { path: new URL(r.url()).pathname, bytes: s.responseBodySize + s.responseHeadersSize };
      }),
    );
    const bytes = scripts.reduce((sum, s) => sum + s.bytes, 0);
    return { page: path, width, scenario, bytes, scripts, withinBudget: bytes <= BUDGET_BYTES };
  } finally {
    await context.close();
  }
}

/**
 * `measurePage` for each path, a few at a time: most of a page's time is the settling wait
 * (SETTLE_MS), and each page has its own context, so pages side by side count the same bytes.
 * The rows come back in the order of `paths`.
 */
export async function measurePages(
  browser: Browser,
  origin: string,
  paths: readonly string[],
  width: number,
  scenario: PageJsRow['scenario'] = 'today',
  settled?: (page: Page) => Promise<void>,
  atOnce = 4,
): Promise<PageJsRow[]> {
  const rows: PageJsRow[] = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < paths.length; i = next++) rows[i] = await measurePage(browser, origin, paths[i]!, width, scenario, settled);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, paths.length) }, worker));
  return rows;
}

/** The rows as a Markdown table with the target and met/missed. */
export function pageJsTable(rows: PageJsRow[]): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  return [
    '| page | width | promotion | JS transferred before interaction | target | scripts | |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.width} | ${r.scenario} | ${kb(r.bytes)} | ≤ ${kb(BUDGET_BYTES)} | ` +
        `${r.scripts.map((s) => `${s.path.replace(/^\/assets\//, '')} (${kb(s.bytes)})`).join(', ')} | ${r.withinBudget ? 'met' : 'MISSED'} |`,
    ),
  ].join('\n');
}
