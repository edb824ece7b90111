import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll } from './helpers/a11y.ts';
import { login } from './helpers/auth.ts';
import { apiAs, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL } from './ports.ts';

// The back office's order page carries, on its tabs, what waits for the agency on that order — the
// order's share of the action inbox (docs/decisions/278-admin-order-tab-badges.md): a submitted
// brief on Brief, the customer's new files on Files, pins to answer on Reviews; and the overview's
// inbox with them (docs/decisions/330-agency-inbox-kinds.md). Chromium at 1280 and 390 px, with axe.

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Uploads a PNG to the order's files as the user signed in in `page` (the founder: under /admin); its status and file id. */
const uploadFile = (page: Page, orderId: string, name: string, side: 'customer' | 'agency' = 'customer') =>
  page.evaluate(
    async ([id, fileName, bytes, prefix]) => {
      const form = new FormData();
      form.append('file', new File([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], fileName, { type: 'image/png' }));
      const res = await fetch(`/api/v1/${prefix}orders/${encodeURIComponent(id)}/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
        body: form,
      });
      return { status: res.status, id: ((await res.json()) as { file?: { id: string } }).file?.id ?? '' };
    },
    [orderId, name, PNG.toString('base64'), side === 'agency' ? 'admin/' : ''] as const,
  );
const upload = async (page: Page, orderId: string, name: string) => (await uploadFile(page, orderId, name)).status;

async function look(page: Page, name: string, badges: readonly string[] = ['brief', 'files', 'reviews']) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    // The badges sit on their tabs at either width: a tap on the badge is a tap on its tab.
    for (const id of badges) {
      const hit = await page.getByTestId(`tab-waiting-${id}`).evaluate((badge) => {
        const r = badge.getBoundingClientRect();
        const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return el?.closest('[role="tab"]')?.id ?? null;
      });
      expect(hit, `${id} badge at ${width}px`).toBe(`tab-${id}`);
    }
    await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the back office order page shows a submitted brief and new customer files as tab badges', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  await login(page, `badges-${stamp}@example.com`, { name: 'Bina Badges' });
  const orderId = await payAdvanceInTestCheckout(page);
  const brief = {
    businessName: 'Bina Bakes',
    businessDescription: 'Cakes to order.',
    pages: ['Home', 'Menu'],
    domain: 'has',
    contentReadiness: 'partly',
  };
  expect((await apiAs(page, 'PUT', `orders/${orderId}/brief`, { answers: brief, submit: true })).status).toBe(200);
  expect(await upload(page, orderId, 'logo.png')).toBe(201);
  expect(await upload(page, orderId, 'shopfront.png')).toBe(201);

  const ownerCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await ownerCtx.newPage();
  await login(owner, ADMIN_EMAIL);
  // A design round, and the customer's pin on it: a pin to answer, not a file (docs/decisions/330-agency-inbox-kinds.md).
  const design = await uploadFile(owner, orderId, 'home.png', 'agency');
  expect(design.status).toBe(201);
  const round = await apiAs(owner, 'POST', `admin/orders/${orderId}/reviews`, { kind: 'ui', title: 'Home page', fileIds: [design.id] });
  expect(round.status).toBe(201);
  const pin = await apiAs(page, 'POST', `orders/${orderId}/reviews/${round.body.review.id}/comments`, {
    fileId: design.id,
    x: 0.4,
    y: 0.3,
    text: 'A bigger logo, please.',
  });
  expect(pin.status).toBe(201);
  await owner.goto('/admin');
  const inbox = owner.getByTestId('action-inbox');
  for (const what of ['Brief submitted', '2 new files from the customer', '1 pin to answer']) {
    await expect(inbox.getByRole('link').filter({ hasText: orderId }).filter({ hasText: what })).toBeVisible();
  }
  await look(owner, 'admin-inbox-kinds', []);

  await owner.goto(`/admin/orders/${orderId}`);
  const tabs = owner.getByRole('tablist', { name: 'Order workspace' });
  await expect(tabs.getByTestId('tab-waiting-brief')).toHaveText('1 waiting for you');
  await expect(tabs.getByTestId('tab-waiting-files')).toHaveText('2 waiting for you');
  await expect(tabs.getByTestId('tab-waiting-reviews')).toHaveText('1 waiting for you');
  await expect(tabs.getByRole('tab', { name: /Files 2 waiting for you/ })).toBeVisible();
  await look(owner, 'admin-order-badges');

  // Opening the files is seeing them: once the founder moves on, the Files badge is gone. The brief
  // waits until someone on the agency side opens it (docs/decisions/330-agency-inbox-kinds.md).
  await tabs.getByRole('tab', { name: /^Files/ }).click();
  await expect(owner.getByRole('tabpanel')).toContainText('shopfront.png');
  await tabs.getByRole('tab', { name: /^Brief/ }).click();
  await expect(tabs.getByTestId('tab-waiting-files')).toHaveCount(0);
  await expect(tabs.getByTestId('tab-waiting-brief')).toBeVisible();
  await expect(owner.getByRole('tabpanel')).toContainText('Bina Bakes');
  await tabs.getByRole('tab', { name: /^Progress/ }).click();
  await expect(tabs.getByTestId('tab-waiting-brief')).toHaveCount(0);
  await ownerCtx.close();
});
