import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './helpers/a11y.ts';
import { login } from './helpers/auth.ts';
import { apiAs, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL } from './ports.ts';

// Sign in → pricing → pay the advance with a referral code in the built-in test
// checkout → dashboard → status stage 1 → stages advanced through the tracker service → pay the
// remaining → delivery link; the referrer sees earned cashback.

/** The test checkout page: clearly test mode, then Pay. */
async function payInTestCheckout(page: Page, amount: string) {
  await expect(page.getByText('TEST MODE — no real money moves')).toBeVisible();
  await expect(page.getByTestId('test-checkout-amount')).toHaveText(amount);
  await expectAccessible(page);
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
}

test('an order from advance with a referral code to delivery, and the referrer earns cashback', async ({ browser }) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const referrerEmail = `referrer-${stamp}@example.com`;
  const buyerEmail = `buyer-${stamp}@example.com`;

  const referrerCtx = await browser.newContext();
  const referrer = await referrerCtx.newPage();
  await login(referrer, referrerEmail, { name: 'Riya Referrer' });
  const code = (await apiAs(referrer, 'GET', 'referral/summary')).body.code as string;
  expect(code).toMatch(/^REF/);

  const buyerCtx = await browser.newContext();
  const page = await buyerCtx.newPage();
  await login(page, buyerEmail, { name: 'Bela Buyer' });

  // Pricing: the currency follows the visitor's country (India in the e2e geo fake) until they switch.
  await page.goto('/pricing');
  await expect(page.getByTestId('plan-price')).toContainText('₹76,415.00');
  await page.getByTestId('currency-select').selectOption('USD');
  await expect(page.getByTestId('plan-price')).toContainText('$899.00');
  await expect(page.getByTestId('list-price')).toContainText('$999.00');
  await page.getByTestId('pricing-cta').click();
  await expect(page).toHaveURL(/\/pay$/);
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  await expect(page.getByTestId('currency-select')).toHaveValue('USD');
  await expect(page.getByTestId('amount-due')).toHaveText('$183.00');

  // An expired promotion, then the referral code.
  const field = page.getByLabel('Coupon or referral code');
  await field.fill('FIRSTWEB25');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('button', { name: 'Invalid' })).toBeVisible();
  await expect(page.getByText('This code expired on January 31, 2025.')).toBeVisible();
  await field.fill(code);
  await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('button', { name: 'Applied' })).toBeVisible();
  await expect(page.getByTestId('amount-due')).toHaveText('$174.00');
  await expectAccessible(page);
  // Pay is disabled until the terms are accepted.
  await expect(page.getByRole('button', { name: 'Pay $174.00' })).toBeDisabled();
  await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();
  await page.getByRole('button', { name: 'Pay $174.00' }).click();

  await payInTestCheckout(page, '$174.00');
  await expect(page.getByText('Payment received — thank you!')).toBeVisible();
  await page.getByRole('link', { name: 'Go to dashboard' }).click();

  await page.getByRole('tab', { name: 'My Orders' }).click();
  const row = page.getByTestId('orders-table').locator('tbody tr').first();
  await expect(row).toContainText('$871.13');
  await expect(row.locator('td').nth(3)).toHaveText('Paid');
  await expect(row.locator('td').nth(4)).toHaveText('Due');
  await expectAccessible(page);
  // The first cell also says what waits (the order's stage and links): the id is its first line.
  const orderId = (await row.locator('td').first().innerText()).split('\n')[0]!.trim();
  await row.getByRole('link', { name: orderId }).click();

  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));
  await expect(page.getByTestId('tracker-count')).toHaveText('1/15 Completed');
  await expect(page.getByRole('button', { name: 'Pay remaining $697.13' })).toBeVisible();
  await expect(page.getByTestId('delivery-link')).toHaveCount(0);
  await expectAccessible(page);

  // The founder completes stages 2–13 (the back office's screen calls the same service).
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  for (let stage = 2; stage <= 13; stage++) {
    const r = await apiAs(
      admin,
      'POST',
      `tracker/order/${orderId}/complete-next-stage`,
      stage === 13 ? { note: 'Ready to launch', deliveryUrl: 'https://bela.example.com' } : { note: `Stage ${stage} done` },
    );
    expect(r.status).toBe(200);
  }

  await page.reload();
  await expect(page.getByTestId('tracker-count')).toHaveText('13/15 Completed', { timeout: 15_000 });
  await expect(page.getByText('Ready to launch')).toBeVisible();
  await expect(page.getByTestId('delivery-link')).toHaveCount(0);
  await page.getByRole('button', { name: 'Pay remaining $697.13' }).click();
  await expect(page.getByRole('heading', { name: 'Pay Remaining' })).toBeVisible();
  await expect(page.getByTestId('amount-due')).toHaveText('$697.13');
  await page.getByRole('button', { name: 'Pay $697.13' }).click();
  await payInTestCheckout(page, '$697.13');

  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));
  await expect(page.getByTestId('tracker-count')).toHaveText('15/15 Completed', { timeout: 15_000 });
  await expect(page.getByTestId('delivery-link')).toHaveAttribute('href', 'https://bela.example.com');
  await expect(page.getByTestId('remaining')).toContainText('Paid');
  // Spec §4: horizontal from 768 px, vertical below.
  const firstTwo = async () =>
    Promise.all([page.getByTestId('stage').nth(0).boundingBox(), page.getByTestId('stage').nth(1).boundingBox()]);
  let [a, b] = await firstTwo();
  expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
  expect(b!.x).toBeGreaterThan(a!.x);
  await page.setViewportSize({ width: 767, height: 900 });
  [a, b] = await firstTwo();
  expect(b!.y).toBeGreaterThan(a!.y + 10);
  expect(Math.abs(a!.x - b!.x)).toBeLessThan(2);

  // The referrer's cashback is earned: 5% of $899.00 = $44.95.
  await referrer.goto('/referAndEarn');
  const panel = referrer.getByTestId('referral-panel');
  await expect(panel.getByTestId('referral-code')).toHaveText(code);
  await expect(panel.getByTestId('cashback-earned')).toHaveText('$44.95');
  await expect(panel.getByTestId('cashback-pending')).toHaveText('$0.00');
  await expectAccessible(referrer);
  await Promise.all([referrerCtx.close(), buyerCtx.close(), adminCtx.close()]);
});

test('/pay sends visitors home and /status sends them to sign in @mobile', async ({ page }) => {
  await page.goto('/pay');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/status/ORDNOTMINE');
  await expect(page).toHaveURL(/\/login$/);
});

/** Every point across the Pay button, at its vertical centre, answers a tap on the button itself. */
async function payButtonIsClear(page: Page) {
  return page.getByRole('button', { name: /^Pay .*\d/ }).evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) return 'not in view';
    const y = r.top + r.height / 2;
    for (const f of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      const hit = document.elementFromPoint(r.left + r.width * f, y);
      if (!hit || !(hit === el || el.contains(hit)))
        return `covered at ${Math.round(f * 100)}% by ${hit?.textContent?.trim().slice(0, 30)}`;
    }
    // Nor may the button, wherever it went, lie on the amounts ( it hid them).
    const launcher = document.querySelector<HTMLElement>('[data-testid="chat-launcher"]');
    if (launcher && getComputedStyle(launcher).visibility !== 'hidden') {
      const l = launcher.getBoundingClientRect();
      for (const dd of document.querySelectorAll<HTMLElement>('[data-testid="quote"] dd')) {
        const a = dd.getBoundingClientRect();
        if (a.bottom > l.top && a.top < l.bottom && a.right > l.left && a.left < l.right)
          return `Help & Support lies on the amount ${dd.textContent?.trim()}`;
      }
    }
    return 'clear';
  });
}

test('the payment page as a shopper uses it: the coupon survives Cancel and Back, Help & Support never covers Pay, the links go where they say', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const referrerCtx = await browser.newContext();
  const referrer = await referrerCtx.newPage();
  await login(referrer, `pay-referrer-${stamp}@example.com`, { name: 'Ravi Referrer' });
  const code = (await apiAs(referrer, 'GET', 'referral/summary')).body.code as string;
  await referrerCtx.close();

  // A phone: 390 × 844.
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await login(page, `pay-shopper-${stamp}@example.com`, { name: 'Sita Shopper' });
  await page.goto('/pay');
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  const payButton = page.getByRole('button', { name: /^Pay .*\d/ });
  await expect(payButton).toBeVisible();
  await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();

  // The placeholder never suggests an offer that has ended (FIRSTWEB25 did).
  await expect(page.getByLabel('Coupon or referral code')).toHaveAttribute('placeholder', 'Enter your code');
  // /pay links to the Terms (the sentence under the form, and the box to tick).
  await expect(page.getByRole('link', { name: 'Terms and conditions', exact: true })).toHaveAttribute('href', '/termsandconditions');
  await expect(page.getByRole('link', { name: 'Terms and Conditions', exact: true })).toHaveAttribute('href', '/termsandconditions');

  // At every scroll position where the Pay button is in view, as a finger
  // scrolls (not brought to the middle), the whole button answers a tap and no amount is hidden —
  // Help & Support stepped aside; it is back once Pay scrolls away.
  await page.getByTestId('chat-launcher').waitFor({ state: 'attached' });
  const maxScroll = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  let checked = 0;
  for (let y = 0; y <= maxScroll + 40; y += 40) {
    await page.evaluate((top) => window.scrollTo(0, top), Math.min(y, maxScroll));
    const inView = await payButton.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    if (!inView) continue;
    checked++;
    await expect.poll(() => payButtonIsClear(page), { message: `Pay button at scroll ${y}`, timeout: 3000 }).toBe('clear');
  }
  expect(checked).toBeGreaterThan(0);
  // Scrolled to the end, Pay is clear of its corner: the button is back and answers a tap.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByRole('button', { name: /Help & Support/ })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));

  // A code applied, then Cancel in the checkout: still applied, and said so.
  const field = page.getByLabel('Coupon or referral code');
  await field.fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('button', { name: 'Applied' })).toBeVisible();
  const discounted = (await page.getByTestId('amount-due').innerText()).trim();
  await payButton.click();
  await expect(page.getByText('TEST MODE — no real money moves')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/pay\?cancelled=1/);
  await expect(page.getByText('Payment cancelled. Nothing was charged.')).toBeVisible();
  await expect(field).toHaveValue(code);
  await expect(page.getByRole('button', { name: 'Applied' })).toBeVisible();
  await expect(page.getByTestId('coupon-message')).toContainText(`${code} is still applied`);
  await expect(page.getByTestId('amount-due')).toHaveText(discounted);

  // … and after the browser's Back from the checkout, on a fresh load of /pay.
  await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();
  await payButton.click();
  await expect(page.getByText('TEST MODE — no real money moves')).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  await expect(field).toHaveValue(code);
  await expect(page.getByTestId('amount-due')).toHaveText(discounted);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  await expect(field).toHaveValue(code);
  await expect(page.getByRole('button', { name: 'Applied' })).toBeVisible();
  await expect(page.getByTestId('amount-due')).toHaveText(discounted);
  // Removing it is the shopper's choice.
  await page.getByRole('button', { name: 'Remove code' }).click();
  await expect(field).toHaveValue('');
  await expect(page.getByTestId('amount-due')).not.toHaveText(discounted);

  // On Pay Remaining the way back goes to the order, not home.
  const orderId = await payAdvanceInTestCheckout(page);
  await page.goto(`/status/${encodeURIComponent(orderId)}`);
  await page.getByRole('button', { name: /^Pay remaining/ }).click();
  await expect(page.getByRole('heading', { name: 'Pay Remaining' })).toBeVisible();
  await expect(page.getByRole('link', { name: '← Home' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Terms and conditions' })).toHaveAttribute('href', '/termsandconditions');
  await page.getByRole('link', { name: '← Back to your order' }).click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));
  await ctx.close();
});
