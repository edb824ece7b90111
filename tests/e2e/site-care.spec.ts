import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './helpers/a11y.ts';
import { login } from './helpers/auth.ts';
import { deliverOrder, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL, CONTROL_URL } from './ports.ts';
import { startFakeSite } from '../fakes/sites.ts';

// Site care in Chromium (docs/decisions/325–329): an order delivered to a local website; checks run
// through the stack's control port (nothing runs by itself in the e2e stack); the site goes down and
// comes back. The customer's Support tab shows the health line and the incident; the founder sees
// /admin/sites, writes this month's report so far, and the customer opens it and downloads its PDF.

async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), `${name}-${width}.png`), fullPage: true });
  }
}

/** Every control of the screen answers a tap where it is drawn (nothing covers it). */
async function expectTappable(page: Page, selector: string) {
  const covered = await page.evaluate((sel) => {
    return [...document.querySelectorAll<HTMLElement>(sel)]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.bottom < 0 || r.top > innerHeight) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !(hit && (hit === el || el.contains(hit)));
      })
      .map((el) => el.textContent?.trim() ?? el.tagName);
  }, selector);
  expect(covered).toEqual([]);
}

test('site care: the health line and an incident on the Support tab, /admin/sites, a care report with its PDF', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const site = await startFakeSite();
  try {
    const email = `site-care-${Date.now()}@example.com`;
    await login(page, email, { name: 'Sita Care' });
    const orderId = await payAdvanceInTestCheckout(page);
    const adminCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await adminCtx.newPage();
    await login(admin, ADMIN_EMAIL);
    await deliverOrder(admin, page, orderId, site.url);

    // Checks at moved times in the last 20 minutes: up, two failures (down: an incident), up again.
    const base = Date.now() - 20 * 60_000;
    const check = async (minutes: number) => {
      const res = await fetch(`${CONTROL_URL}/site-care/check?order=${orderId}&at=${new Date(base + minutes * 60_000).toISOString()}`, {
        method: 'POST',
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json()).checked).toBe(1);
    };
    await check(0);
    site.state.mode = 'error';
    await check(5);
    await check(10);
    site.state.mode = 'ok';
    await check(15);

    // The customer's Support tab: the health line, the incident with its length and cause, the strip.
    await page.goto(`/status/${orderId}?tab=support`);
    const line = page.getByTestId('site-health-line');
    await expect(line).toContainText(/^▲ Up · \d+\.\d{2} % in the last 30 days · checked /);
    const incidents = page.getByTestId('site-incidents');
    await expect(incidents).toContainText(/10 min · server error/);
    await expect(page.getByRole('list', { name: 'Daily uptime, last 90 days' }).getByRole('listitem')).toHaveCount(90);
    await shots(page, 'site-care-support-tab');

    // The founder: every watched site on one page.
    await admin.goto('/admin/sites');
    const row = admin.getByTestId('admin-site').filter({ hasText: orderId });
    await expect(row).toContainText('Up');
    await expect(row).toContainText(site.url);
    await expect(row).toContainText(/10 min · server error/);
    await shots(admin, 'site-care-admin-sites');
    await expectTappable(admin, 'a, button');

    // The founder writes this month's reports so far from the order's Support tab.
    await admin.goto(`/admin/orders/${orderId}?tab=support`);
    await admin.getByRole('button', { name: 'Write this month’s reports so far' }).click();
    await expect(admin.getByRole('status').filter({ hasText: /written/ })).toBeVisible();
    // The agency's block: the same health, the form to watch another URL, the owner's switch.
    await expect(admin.getByRole('form', { name: 'Watch another URL' })).toBeVisible();
    await expect(admin.getByTestId('site-health-line')).toContainText('▲ Up');
    await shots(admin, 'site-care-admin-order');

    // The customer opens it: the page, then its PDF.
    await page.goto(`/status/${orderId}?tab=support`);
    const report = page.getByTestId('care-reports').getByRole('link', { name: /\(so far\)/ });
    await report.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Care report, \w+ \d{4} \(so far\)$/);
    await expect(page.getByTestId('report-site')).toContainText(site.url);
    await expect(page.getByTestId('report-incidents')).toContainText('server error');
    await shots(page, 'site-care-report');
    await expectTappable(page, 'a, button');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^care-report-.+-\d{4}-\d{2}-so-far\.pdf$/);
    const path = await download.path();
    expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
    await adminCtx.close();
  } finally {
    await site.close();
  }
});
