import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './helpers/a11y.ts';
import { login } from './helpers/auth.ts';
import { LOGO } from './helpers/images.ts';
import { apiAs, deliverOrder, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { uploadAs } from './helpers/workspace.ts';
import { ADMIN_EMAIL, CONTROL_URL } from './ports.ts';

// In Chromium: the founder delivers an order; the customer opens a `change`
// request with a file; the founder answers and resolves it; the customer reopens it; with the
// delivery a year and more in the past a new request is refused and the plan offered; the customer
// subscribes through the test checkout; a monthly charge (the test stack's control port) extends
// support and issues an invoice; cancel at period end works.

/** Full-page screenshots at 390 and 1280 px, no sideways scroll at either (the page is left at 1280). */
async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // A phone's width: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // SHOTS_DIR keeps them out of test-results/, which the next Playwright run empties.
    await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), `${name}-${width}.png`), fullPage: true });
  }
}

const control = async (path: string) => {
  const res = await fetch(`${CONTROL_URL}${path}`, { method: 'POST' });
  expect(res.status, await res.clone().text()).toBe(200);
};

test('support after delivery: a request both ways, the window ending, the maintenance plan and its charges', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const email = `support-${Date.now()}@example.com`;
  await login(page, email, { name: 'Sam Support' });
  const orderId = await payAdvanceInTestCheckout(page);

  // The founder delivers: stages 2–13 (the link with 13), then the customer pays the rest (14, 15).
  const adminCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  await deliverOrder(admin, page, orderId, 'https://sam.example.com');

  // The customer opens a `change` request with a file of the order.
  await uploadAs(page, `orders/${orderId}`, 'new-banner.png', LOGO);
  // The dashboard's My Orders says it too, in the same words as the order page.
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'My Orders' }).click();
  await expect(page.getByTestId('orders-table').getByTestId('order-support')).toHaveText(/^Support until \w{3} \d{1,2}, \d{4}$/);
  await page.goto(`/status/${orderId}?tab=support`);
  await expect(page.getByTestId('support-until')).toHaveText(/^Support until \w{3} \d{1,2}, \d{4}$/);
  const form = page.getByRole('form', { name: 'New support request' });
  await form.getByLabel('Title').fill('Change the banner');
  await form.getByLabel('Description').fill('Please use the new banner\non the home page.');
  await form.getByRole('radio', { name: 'Change' }).check();
  await form.getByRole('checkbox', { name: 'new-banner.png' }).check();
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Send request' }).click();
  const request = page.getByTestId('support-request').filter({ hasText: 'Change the banner' });
  await expect(request.getByTestId('support-state')).toHaveText('Open');
  await expect(page.getByTestId('support-message').first()).toContainText('Files: new-banner.png');
  await expect(form.getByLabel('Title')).toHaveValue('');
  await shots(page, 'customer-support');

  // The founder: the queue, the request, an answer, resolved.
  await admin.goto('/admin/support');
  await expect(admin.getByRole('link', { name: 'Support', exact: true })).toBeVisible();
  const row = admin.getByTestId('support-queue-row').filter({ hasText: 'Change the banner' });
  await expect(row).toContainText('Open');
  await expect(row).toContainText(/\d+ min/);
  await expectAccessible(admin);
  await shots(admin, 'admin-support-queue');
  await row.getByRole('link', { name: 'Change the banner' }).click();
  await expect(admin.getByTestId('support-message').first()).toContainText('Please use the new banner');
  await admin.getByLabel('Reply').fill('Done — the new banner is live.');
  await admin.getByRole('button', { name: 'Send reply' }).click();
  await expect(admin.getByTestId('support-message')).toHaveCount(2);
  await admin.getByRole('button', { name: 'Mark resolved' }).click();
  await expect(admin.getByTestId('admin-support-state')).toHaveText('Resolved');
  await expectAccessible(admin);
  await shots(admin, 'admin-support-request');

  // The customer, the thread still open, sees the answer and the new state live, and reopens the request.
  await expect(page.getByTestId('support-message').nth(1)).toContainText('Done — the new banner is live.');
  await expect(request.getByTestId('support-state')).toHaveText('Resolved');
  await page.getByRole('button', { name: 'Reopen' }).click();
  await expect(request.getByTestId('support-state')).toHaveText('Open');

  // A year and more later: a new request is refused with the plan's offer; the form keeps its text.
  await control(`/support/age?order=${encodeURIComponent(orderId)}&days=400`);
  await page.reload();
  await expect(page.getByTestId('support-until')).toHaveText(/^Support ended on /);
  await form.getByLabel('Title').fill('A new page');
  await form.getByLabel('Description').fill('Add a menu page.');
  await form.getByRole('radio', { name: 'Change' }).check();
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('support-ended')).toContainText(/maintenance plan \(.+ a month\)/);
  await expect(form.getByLabel('Title')).toHaveValue('A new page');
  await expect(form.getByLabel('Description')).toHaveValue('Add a menu page.');
  await expect(page.getByTestId('support-request')).toHaveCount(1);
  await expectAccessible(page);
  await shots(page, 'customer-support-ended');

  // Leaving the test checkout says so on the order page; then subscribing, and back on the order page.
  // The maintenance terms are accepted first (docs/decisions/266-maintenance-terms-acceptance.md).
  await page.getByRole('checkbox', { name: 'I agree to the maintenance plan terms' }).check();
  await page.getByRole('button', { name: 'Subscribe to the maintenance plan' }).click();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByText('You left the checkout: no plan was started and nothing was charged.')).toBeVisible();
  await expect(page).not.toHaveURL(/checkout-cancelled/);
  await page.getByRole('checkbox', { name: 'I agree to the maintenance plan terms' }).check();
  await page.getByRole('button', { name: 'Subscribe to the maintenance plan' }).click();
  await page.getByRole('button', { name: /^Subscribe for .* a month \(test\)$/ }).click();
  await expect(page.getByText('Your maintenance plan is active — thank you!')).toBeVisible();
  await expect(page).not.toHaveURL(/razorpay_signature/);
  await expect(page.getByTestId('plan-state')).toContainText('Active');
  await expect(page.getByTestId('support-until')).toHaveText(/^Support until /);
  const firstUntil = await page.getByTestId('support-until').innerText();

  // The founder's order page: the plan, its next charge and the first charge's invoice.
  const detail = await apiAs(admin, 'GET', `admin/orders/${orderId}`);
  const maintenance = (detail.body as { maintenance: { subscriptionId: string; currentPeriodEnd: string } }).maintenance;
  await admin.goto(`/admin/orders/${orderId}?tab=support`);
  await expect(admin.getByTestId('plan-charge')).toHaveCount(1);
  await expect(admin.getByTestId('plan-charge')).toContainText(/invoice \S+/);
  await expect(admin.getByTestId('next-charge')).not.toHaveText('None');

  // The monthly charge, as Razorpay would make it at the end of the paid period.
  await control(
    `/maintenance/charge?subscription=${encodeURIComponent(maintenance.subscriptionId)}&at=${encodeURIComponent(maintenance.currentPeriodEnd)}`,
  );
  await admin.reload();
  await expect(admin.getByTestId('plan-charge')).toHaveCount(2);
  await expect(admin.getByTestId('plan-charge').nth(1)).toContainText(/invoice \S+/);
  await expect(admin.getByTestId('plan-charge').nth(0)).toContainText(/invoice \S+/);
  const downloading = admin.waitForEvent('download');
  await admin
    .getByTestId('plan-charge')
    .nth(0)
    .getByRole('button', { name: /^Download invoice .* \(PDF\)$/ })
    .click();
  expect((await downloading).suggestedFilename()).toMatch(/\.pdf$/);
  await expectAccessible(admin);
  await shots(admin, 'admin-order-support');
  await page.reload();
  await expect(page.getByTestId('support-until')).toHaveText(/^Support until /);
  expect(await page.getByTestId('support-until').innerText()).not.toBe(firstUntil);

  // Cancel at period end asks first ("Keep my plan" leaves it), and can be taken back before the period ends.
  await page.getByRole('button', { name: 'Cancel at period end' }).click();
  const confirmCancel = page.getByRole('group', { name: 'Confirm the cancellation' });
  await expect(confirmCancel).toContainText(/stays active until .+ and nothing more is charged/);
  await expectAccessible(page);
  await shots(page, 'customer-plan-cancel-confirm');
  await confirmCancel.getByRole('button', { name: 'Keep my plan' }).click();
  await expect(page.getByTestId('plan-state')).not.toContainText("ends at the period's end");
  await page.getByRole('button', { name: 'Cancel at period end' }).click();
  await confirmCancel.getByRole('button', { name: 'Yes, cancel at period end' }).click();
  await expect(page.getByText('Your plan ends at the end of the paid period')).toBeVisible();
  await expect(page.getByTestId('plan-state')).toContainText("ends at the period's end");
  await page.getByRole('button', { name: 'Keep my plan' }).click();
  await expect(page.getByText('Your plan continues: it renews every month as before.')).toBeVisible();
  await expect(page.getByTestId('plan-state')).not.toContainText("ends at the period's end");
  await page.getByRole('button', { name: 'Cancel at period end' }).click();
  await confirmCancel.getByRole('button', { name: 'Yes, cancel at period end' }).click();
  await expect(page.getByText('Your plan ends at the end of the paid period')).toBeVisible();
  await expect(page.getByTestId('plan-state')).toContainText("ends at the period's end");
  await expect(page.getByRole('button', { name: 'Cancel at period end' })).toHaveCount(0);
  await admin.reload();
  await expect(admin.getByTestId('admin-maintenance')).toContainText('cancels at period end');
  await expect(admin.getByTestId('next-charge')).toHaveText('None');
  await expectAccessible(page);
  await shots(page, 'customer-support-plan');
  await adminCtx.close();
});
