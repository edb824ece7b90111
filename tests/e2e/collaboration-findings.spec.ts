import { expect, test, type Page } from '@playwright/test';
import { login } from './helpers/auth.ts';
import { expectAccessible, expectNoSidewaysScroll } from './helpers/a11y.ts';
import { apiAs, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL } from './ports.ts';

// Field findings of the collaboration features at 390 and 1280 px: two tabs editing the brief keep
// both answers (docs/decisions/270-brief-partial-saves.md), agency messages say who wrote them
// (271), a second order while one is in progress is asked about before paying (273), and the
// accepted terms can be read again word for word (272).

const shot = async (page: Page, name: string) => {
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath(`${name}-${test.info().project.name}.png`), fullPage: true });
};
const stamp = () => `${test.info().project.name}-${Date.now()}`;

test('the brief in two tabs: each saves only what changed, both answers are kept, and a tab takes the other’s answer when focused @mobile', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await login(page, `brief-tabs-${stamp()}@example.com`, { name: 'Tara Tabs' });
  const orderId = await payAdvanceInTestCheckout(page);
  const second = await page.context().newPage();
  // Both tabs hold the empty brief before either types.
  for (const p of [page, second]) {
    await p.goto(`/status/${orderId}?tab=brief`);
    await expect(p.getByLabel('Business name')).toBeVisible();
  }
  await page.getByLabel('Who are your customers?').fill('Families in Jayanagar');
  await expect(page.getByTestId('brief-save')).toContainText('Saved');
  await second.getByLabel('Colours and fonts').fill('Deep green and cream, a serif heading');
  await expect(second.getByTestId('brief-save')).toContainText('Saved');

  // Tab 2's save did not erase tab 1's answer.
  const stored = await apiAs(page, 'GET', `orders/${orderId}/brief`);
  expect(stored.body.brief.answers).toEqual({
    audience: 'Families in Jayanagar',
    coloursAndFonts: 'Deep green and cream, a serif heading',
  });

  // Tab 1 is typing a new answer (not saved yet) when it gets focus back: it takes tab 2's
  // answer and keeps what is being typed.
  await page.bringToFront();
  await page.getByLabel('Business name').fill('Green Leaf Café');
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(page.getByLabel('Colours and fonts')).toHaveValue('Deep green and cream, a serif heading');
  await expect(page.getByLabel('Business name')).toHaveValue('Green Leaf Café');
  await expect(page.getByTestId('brief-save')).toContainText('Saved');
  await expect
    .poll(async () => (await apiAs(page, 'GET', `orders/${orderId}/brief`)).body.brief.answers)
    .toEqual({
      businessName: 'Green Leaf Café',
      audience: 'Families in Jayanagar',
      coloursAndFonts: 'Deep green and cream, a serif heading',
    });
  await expectAccessible(page);
  await shot(page, 'brief-two-tabs');
  await second.close();
});

test('who said what: the customer sees the agency member’s name, the founder sees their own as “You” @mobile', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await login(page, `names-${stamp()}@example.com`, { name: 'Nila Names' });
  const orderId = await payAdvanceInTestCheckout(page);
  await page.goto(`/status/${orderId}?tab=messages`);
  await expect(page.getByTestId('messages-live')).toHaveText('Live');
  await page.getByLabel('Message', { exact: true }).fill('Can we add a gallery page?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('order-message').filter({ hasText: 'Can we add a gallery page?' })).toContainText('You ·');

  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  expect((await apiAs(admin, 'PATCH', 'user/profile', { name: 'Asha' })).status).toBe(200);
  await admin.goto(`/admin/orders/${orderId}?tab=messages`);
  await expect(admin.getByTestId('order-message').filter({ hasText: 'Can we add a gallery page?' })).toContainText('Nila Names ·');
  await admin.getByLabel('Message', { exact: true }).fill('Yes — we will add it to the menu.');
  await admin.getByRole('button', { name: 'Send' }).click();
  await expect(admin.getByTestId('order-message').filter({ hasText: 'Yes — we will add it' })).toContainText('You ·');

  // Live and after a reload: the author's name with the brand, never "The agency" or an address.
  const reply = page.getByTestId('order-message').filter({ hasText: 'Yes — we will add it' });
  await expect(reply).toContainText(/Asha · \S/);
  await page.reload();
  await expect(reply).toContainText(/Asha · \S/);
  await expect(page.getByTestId('order-message').filter({ hasText: 'The agency' })).toHaveCount(0);
  await expect(page.getByText(ADMIN_EMAIL)).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, 'messages-author-names');
  await shot(admin, 'messages-author-names-founder');
  await adminCtx.close();
});

test('a second order while one is in progress is asked about before paying; the accepted terms are readable on both sides @mobile', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await login(page, `second-order-${stamp()}@example.com`, { name: 'Omar Orders' });
  // Tab 1 opens the advance form; tab 2 pays an advance meanwhile.
  await page.goto('/pay');
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('order-in-progress')).toHaveCount(0);
  const other = await page.context().newPage();
  const orderId = await payAdvanceInTestCheckout(other);
  await other.close();

  // Tab 1 presses Pay: the question comes first, with the real order id; nothing is charged.
  await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();
  await page.getByRole('button', { name: /^Pay .*\d/ }).click();
  const question = page.getByTestId('order-in-progress');
  await expect(question).toContainText(`You already have order ${orderId} in progress — open it, or order another website?`);
  await expect(page.getByText('TEST MODE — no real money moves')).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, 'second-order-question');
  // "Order another website" continues to the form.
  await page.getByRole('button', { name: 'Order another website' }).click();
  await expect(question).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' })).toBeVisible();

  // From the pricing button the question is there at once; "Open order" goes to it.
  await page.goto('/pay');
  await expect(question).toBeVisible();
  await page.getByRole('link', { name: `Open order ${orderId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));

  // The accepted terms: when, and the exact wording of that version.
  const accepted = page.getByTestId('terms-accepted');
  await expect(accepted).toContainText('Terms and Conditions accepted');
  const [termsPage] = await Promise.all([
    page.context().waitForEvent('page'),
    accepted.getByRole('link', { name: 'Read the terms you accepted' }).click(),
  ]);
  await expect(termsPage).toHaveURL(/\/termsandconditions\/[0-9a-f]{16}$/);
  await expect(termsPage.getByRole('heading', { name: 'Terms and Conditions', level: 1 })).toBeVisible();
  await expect(termsPage.getByTestId('terms-version')).toContainText('It is the wording on the site today.');
  await expect(termsPage.getByRole('heading', { name: /Refunds/ })).toBeVisible();
  await expectAccessible(termsPage);
  await shot(termsPage, 'accepted-terms');
  await shot(page, 'order-terms-accepted');

  // The founder's order view links the same version.
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  await admin.goto(`/admin/orders/${orderId}`);
  const line = admin.getByTestId('terms-accepted');
  await expect(line.getByRole('link', { name: 'Read the accepted terms' })).toHaveAttribute('href', new URL(termsPage.url()).pathname);
  await expectAccessible(admin);
  await adminCtx.close();
});
