import { expect, test, type Page } from '@playwright/test';
import { APP_URL } from './ports.ts';
import { BUDGET_BYTES, PUBLIC_PAGES, WIDTHS, measurePages, pageJsTable, type PageJsRow } from '../../bench/page-js-measure.ts';

// docs/decisions/115: no public page transfers more than 25 KB of JavaScript
// before the visitor does anything, at 390 and 1280 px — counted in the browser, dynamic imports
// included (bench/page-js-measure.ts; bench/page-js.ts prints the same table).

for (const width of WIDTHS) {
  test(`every public page loads ≤ 25 KB of JavaScript before interaction at ${width} px`, async ({ browser }) => {
    test.setTimeout(180_000);
    const rows = await measurePages(browser, APP_URL, PUBLIC_PAGES, width);
    const over = rows.filter((r) => r.bytes > BUDGET_BYTES);
    expect(over, pageJsTable(rows)).toEqual([]);
    // Each page did load its islands entry: a page that loaded no script at all would be a broken page.
    for (const r of rows)
      expect(
        r.scripts.some((s) => /\/islands-[\w-]+\.js$/.test(s.path)),
        `${r.page} at ${width}`,
      ).toBe(true);
  });
}

test('with an offer running (countdown and coupon popup), / and /pricing stay ≤ 25 KB at 390 and 1280 px', async ({ browser }) => {
  test.setTimeout(120_000);
  const rows: PageJsRow[] = [];
  // What the visitor sees then, so that the figure is the one of a page doing its work.
  const running = async (page: Page) => {
    await expect(page.getByTestId('coupon-popup')).toBeVisible();
    await expect(page.getByTestId('promo-countdown')).toHaveText(/^\d+d \d\dh \d\dm \d\ds$/);
  };
  for (const width of WIDTHS) rows.push(...(await measurePages(browser, APP_URL, ['/', '/pricing'], width, 'offer running', running)));
  const over = rows.filter((r) => r.bytes > BUDGET_BYTES);
  expect(over, pageJsTable(rows)).toEqual([]);
});
