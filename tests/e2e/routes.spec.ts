import { expect, test } from '@playwright/test';

// Spec §2 route table: which routes show the shared header and footer.
const table: [path: string, bare: boolean][] = [
  ['/', true],
  ['/about', false],
  ['/pricing', true],
  ['/login', true],
  ['/signup', true],
  ['/signup/emailverify', true],
  ['/login/emailverify', true],
  ['/signup/enterDetails', true],
  ['/contact', true],
  ['/getAllRecommendations', true],
  ['/dashboard', true],
  ['/status/ORDER1', true],
  ['/pay', true],
  ['/googleLogin', true],
  ['/microsoftLogin', true],
  ['/referAndEarn', false],
  ['/privacypolicy', false],
  ['/faqs', false],
  ['/termsandconditions', false],
  ['/chat', true],
  ['/adminChat', true],
];

for (const [path, bare] of table) {
  test(`${path} renders ${bare ? 'bare' : 'with header and footer'}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('[data-layout]')).toHaveAttribute('data-layout', bare ? 'bare' : 'full');
    await expect(page.getByTestId('site-header')).toHaveCount(bare ? 0 : 1);
    await expect(page.getByTestId('site-footer')).toHaveCount(bare ? 0 : 1);
    await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0);
  });
}

test('unknown paths show the not-found page @mobile', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'WRONG TURN?' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('unknown API paths answer JSON 404', async ({ request }) => {
  const res = await request.get('/api/nope');
  expect(res.status()).toBe(404);
  expect(await res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
});

test('deep links get the app and hashed assets are cached for a year', async ({ request, page }) => {
  const res = await request.get('/dashboard', { headers: { accept: 'text/html' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/html');
  const html = await res.text();
  const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
  expect(asset).toBeTruthy();
  const a = await request.get(asset!);
  expect(a.headers()['cache-control']).toContain('immutable');
  await page.goto('/dashboard');
});
