import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll, expectTappable } from './helpers/a11y.ts';
import { login } from './helpers/auth.ts';
import { apiAs, deliverOrder, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL } from './ports.ts';

// What waits for whom, and ratings (docs/decisions/213-action-counts.md, 214-ratings.md), in
// Chromium at 390 and 1280 px with axe: the customer's count on Dashboard, My Orders' waiting line
// and the tab badge; the founder's inbox; after delivery "How did we do?", a support request the
// customer resolves and rates, and the 90-day average on the overview.

/** At 390 and 1280 px: no sideways scroll, axe clean, a screenshot (the page is left at 1280). */
async function check(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), `${name}-${width}.png`), fullPage: true });
  }
}

test('both sides see what waits for them; the customer rates the project and a support request', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const email = `actions-${Date.now()}@example.com`;
  await login(page, email, { name: 'Asha Actions' });
  const orderId = await payAdvanceInTestCheckout(page);

  // The customer: a count on Dashboard in the navigation (the site's header and the bare pages' bar)
  // and on My Orders, the stage and "brief to fill in" under the order, a badge on the Brief tab.
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const path of ['/about', '/pricing']) {
    await page.goto(path);
    await expect(
      page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /^Dashboard/ })
        .getByTestId('nav-waiting'),
    ).toHaveText('1 waiting for you');
  }
  await page.goto('/dashboard');
  await expect(page.getByRole('tab', { name: 'My Orders' }).getByTestId('nav-waiting')).toHaveText('1 waiting for you');
  await page.getByRole('tab', { name: 'My Orders' }).click();
  const waiting = page.locator('[data-testid="order-waiting"]:visible');
  await expect(waiting).toContainText('Now: UI Discussion');
  await expect(waiting.getByRole('link', { name: 'brief to fill in' })).toBeVisible();
  await check(page, 'actions-my-orders');
  await waiting.getByRole('link', { name: 'brief to fill in' }).click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}\\?tab=brief$`));
  await expect(page.getByTestId('tab-waiting-brief')).toHaveText(/^1/);

  // The founder: a customer message waits in the overview's inbox, one click from the thread.
  expect((await apiAs(page, 'POST', `orders/${orderId}/messages`, { text: 'Is the logo big enough?' })).status).toBe(201);
  const adminCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  await admin.goto('/admin');
  const inbox = admin.getByTestId('action-inbox');
  const item = inbox.getByRole('link').filter({ hasText: orderId }).filter({ hasText: '1 unread message' });
  await expect(item).toBeVisible();
  await check(admin, 'actions-admin-inbox');
  await item.click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}\\?tab=messages$`));
  await expect(admin.getByTestId('order-message').filter({ hasText: 'Is the logo big enough?' })).toBeVisible();

  // Delivered: the order asks once "How did we do?".
  await deliverOrder(admin, page, orderId, 'https://asha.example.com');
  await page.goto(`/status/${orderId}`);
  const rate = page.getByTestId('rating-form');
  await expect(page.getByRole('heading', { name: 'How did we do?' })).toBeVisible();
  await check(page, 'actions-how-did-we-do');
  await rate
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: /^2 / }) })
    .click();
  await rate.getByLabel('Comment (optional)').fill('Slow at the start, but a lovely site.');
  await rate.getByRole('checkbox', { name: 'You may quote my comment on your website' }).check();
  await rate.getByRole('button', { name: 'Send rating' }).click();
  await expect(page.getByText('Thank you for your rating.')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('tracker-count')).toHaveText('15/15 Completed');
  await expect(page.getByRole('heading', { name: 'How did we do?' })).toHaveCount(0);

  // Support: the target is shown; the customer resolves their request and rates it.
  const opened = await apiAs(page, 'POST', `orders/${orderId}/support/requests`, {
    title: 'Footer link',
    description: 'The footer link is broken.',
    category: 'bug',
  });
  expect(opened.status).toBe(201);
  await page.goto(`/status/${orderId}?tab=support`);
  await expect(page.getByTestId('support-target')).toHaveText('We answer within 24 h.');
  await page.getByTestId('support-request').getByRole('button', { name: 'Footer link' }).click();
  const resolve = page.getByRole('button', { name: 'Mark resolved' });
  await resolve.click();
  await expect(resolve).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
  const supportRating = page.getByTestId('rating-form');
  await supportRating
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: /^5 / }) })
    .click();
  await check(page, 'actions-support-rating');
  await expectTappable(supportRating.getByRole('button'));
  await supportRating.getByRole('button', { name: 'Send rating' }).click();
  await expect(page.getByText('Thank you for your rating.')).toBeVisible();

  // The founder's overview: the average of the last 90 days and the comments.
  await admin.goto('/admin');
  await expect(admin.getByTestId('ratings-average')).toContainText('/ 5 on average over the last 90 days');
  await expect(admin.getByText('Slow at the start, but a lovely site.')).toBeVisible();
  await check(admin, 'actions-admin-ratings');
  await adminCtx.close();
});
