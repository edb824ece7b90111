import { expect, test, type Page } from '@playwright/test';
import { login } from './helpers/auth.ts';
import { apiAs } from './helpers/orders.ts';
import { ADMIN_EMAIL } from './ports.ts';

// The customer's findings: what /pay, the test checkout and /status say after a
// payment, My Orders' Retry, the referral discount's name, the advance's rounding, one date format
// on /status, and the test checkout looking like the site. Screenshots at 390 and 1280 px go to
// test-results/customer-12/ to be looked at.

const SHOTS = 'test-results/customer-12';
async function shoot(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('after each payment the customer is told it is paid, with the way to the order; the page looks like the site', async ({ browser }) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  const referrerCtx = await browser.newContext();
  const referrer = await referrerCtx.newPage();
  await login(referrer, `cp-referrer-${stamp}@example.com`, { name: 'Rita Referrer' });
  const code = (await apiAs(referrer, 'GET', 'referral/summary')).body.code as string;
  // The reward's cap is an amount in the visitor's currency (India in the e2e geo fake: 50 × 85).
  await referrer.goto('/referAndEarn');
  await expect(referrer.getByTestId('referral-cap')).toContainText('up to ₹4,250.00 per referred order');
  await shoot(referrer, 'refer-and-earn-signed-in');

  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await login(page, `cp-buyer-${stamp}@example.com`, { name: 'Bina Buyer' });
  await page.goto('/pay');
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  await page.getByTestId('currency-select').selectOption('USD');
  await expect(page.getByTestId('amount-due')).toHaveText('$183.00');
  // 20 % of $916.98 is $183.39: the page says it is rounded down, and where the difference goes.
  await expect(page.getByTestId('advance-rounding')).toHaveText(
    '20% of $916.98 is $183.39, rounded down to $183.00; the remaining $733.98 makes up the difference.',
  );
  await page.getByLabel('Coupon or referral code').fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('button', { name: 'Applied' })).toBeVisible();
  await expect(page.getByTestId('quote')).toContainText(`Referral discount (code ${code}, 5%)`);
  await expect(page.getByTestId('quote')).not.toContainText('Coupon discount');
  await shoot(page, 'pay-advance-referral');
  await page.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }).check();
  await page.getByRole('button', { name: 'Pay $174.00' }).click();

  // The test checkout: the site's font, the site's icon; /favicon.ico exists for those who ask anyway.
  await expect(page.getByText('TEST MODE — no real money moves')).toBeVisible();
  const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(font).toMatch(/^ui-sans-serif, system-ui/);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  const ico = await page.request.get('/favicon.ico');
  expect(ico.status()).toBe(200);
  expect(ico.headers()['content-type']).toBe('image/x-icon');
  await shoot(page, 'test-checkout');
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(page.getByText('Payment received — thank you!')).toBeVisible();
  const orderId = decodeURIComponent((await page.getByRole('link', { name: 'Follow your order' }).getAttribute('href'))!.split('/').pop()!);

  // A reload keeps saying it is paid — no fresh form for a new order.
  await page.reload();
  await expect(page.getByTestId('advance-paid')).toContainText(orderId);
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  await shoot(page, 'pay-after-advance-reload');
  // Back lands on the test checkout, which says the payment is complete and leads to the order.
  await page.goBack();
  await expect(page.getByTestId('test-checkout-paid')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  await shoot(page, 'test-checkout-after-paying');
  await page.getByRole('link', { name: 'See your order' }).click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));

  // The founder completes stages 2–13; then the remaining payment lands on /status with a confirmation.
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  for (let stage = 2; stage <= 13; stage++)
    expect((await apiAs(admin, 'POST', `tracker/order/${orderId}/complete-next-stage`, {})).status).toBe(200);
  await page.reload();
  await page.getByRole('button', { name: /^Pay remaining / }).click();
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));
  const confirmation = page.getByTestId('remaining-paid');
  await expect(confirmation).toContainText('Your order is fully paid');
  await expect(confirmation).toBeInViewport();
  await expect(confirmation).toBeFocused();

  // Invoices: the TEST series, said to be no tax invoice, dated like every other date on the page, in the
  // viewer's zone ("Month D, YYYY at h:mm AM/PM" and the zone's short name; docs/decisions/335-one-rule-for-times.md).
  const invoices = page.getByTestId('invoices').getByRole('listitem');
  await expect(invoices).toHaveCount(2);
  await expect(invoices.first()).toContainText(/TEST\/\d{4}-\d{2}\/\d{4}/);
  await expect(invoices.first()).toContainText('TEST, not a tax invoice');
  await expect(invoices.first()).toContainText(/[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC/);
  await expect(page.getByTestId('stage').first()).toContainText(/[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC/);
  await shoot(page, 'status-after-remaining');
  await Promise.all([ctx.close(), referrerCtx.close(), adminCtx.close()]);
});

test.describe(() => {
  // The failed load is the page's own request: the signed-in app's service worker (docs/decisions/344-installable-app.md)
  // would answer it from its cache instead.
  test.use({ serviceWorkers: 'block' });
  test('My Orders offers Retry after a failed load @mobile', async ({ page }) => {
    await login(page, `cp-retry-${Date.now()}@example.com`, { name: 'Rafi Retry' });
    // Every read of the list fails until Retry is pressed (the dashboard may read it before the tab does).
    let failing = true;
    await page.route('**/api/v1/order/getAllOrders/user', (route) => (failing ? route.abort('connectionreset') : route.continue()));
    await page.goto('/dashboard');
    await page.getByRole('tab', { name: 'My Orders' }).click();
    await expect(page.getByText('Your orders could not be loaded.')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/my-orders-failed-${page.viewportSize()!.width}.png` });
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByText('You have no orders yet.')).toBeVisible();
  });
});
