import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { devices, expect, test, type Page } from '@playwright/test';
import { login } from './helpers/auth.ts';
import { expectAccessible, expectNoSidewaysScroll } from './helpers/a11y.ts';
import { apiAs, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL, APP_URL, E2E } from './ports.ts';

// Reviewing the live site (decisions 240, 241), in Chromium with a second origin: a small staging
// site served here on its own port, with the one script tag and the CSP lines of the runbook. The
// customer pins a button at 1280 px and by touch at 390 px; the founder sees both with screenshots,
// opens "Show on the site" — and after a CSS change moves the button the pin still sits on it; the
// founder resolves, the customer approves the final round and "Final Review" completes. On the
// phone the toolbar steps aside (docs/decisions/337-review-toolbar-on-phones.md): it starts as a
// handle once the page has a pin, and pads a page shorter than the screen so its footer is pinned.

const STAGING_PORT = E2E.staging;
const STAGING = `http://127.0.0.1:${STAGING_PORT}`;
let moved = false;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
let server: Server;

const PLANS =
  '<section id="plans"><h2>Plans</h2>' +
  '<div class="card"><h3>Small</h3><button>Choose Small</button></div>' +
  '<div class="card"><h3>Family</h3><button class="cta">Choose Family</button></div>' +
  '<div class="card"><h3>Party</h3><button>Choose Party</button></div></section>';
const SHORT_FOOTER = '<footer>© Bela Bakery · <a href="/">Visit us</a></footer>';
const page = (
  path: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Bela Bakery (staging)</title><link rel="stylesheet" href="/site.css">
<script src="${APP_URL}/review.js" async></script></head>
<body><header><h1>Bela Bakery</h1><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav></header>
<main>${path === '/pricing' ? PLANS : '<p>Fresh bread every morning.</p>'}</main>${path === '/short' ? SHORT_FOOTER : ''}</body></html>`;
const css = () => `body{font-family:sans-serif;margin:0;padding:16px;background:#fff7ed;color:#1c1917}
#plans{display:flex;flex-wrap:wrap;gap:16px}.card{background:#fff;border:1px solid #d6d3d1;border-radius:12px;padding:16px;flex:1 1 220px;min-height:160px}
.card button{padding:12px 20px;font-size:16px;border-radius:8px;border:0;background:#c2410c;color:#fff}
body:has(footer){padding:0;min-height:100vh;display:flex;flex-direction:column}body:has(footer) main{flex:1;padding:16px}
footer{padding:16px;background:#1c1917;color:#fff}footer a{color:#fdba74}
${moved ? '#plans{flex-direction:column-reverse}.card .cta{margin-left:120px;margin-top:40px}' : ''}`;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/site.css') return res.writeHead(200, { 'content-type': 'text/css', 'cache-control': 'no-store' }).end(css());
    if (path !== '/' && path !== '/pricing' && path !== '/short') return res.writeHead(404).end();
    // The runbook's CSP for a staging site (docs/operations.md): our origin for the script and the API.
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy':
        `default-src 'self'; script-src 'self' ${APP_URL}; connect-src 'self' ${APP_URL}; img-src 'self' data: blob:; ` +
        `style-src 'self'`,
    });
    res.end(page(path));
  });
  await new Promise<void>((resolve) => server.listen(STAGING_PORT, '127.0.0.1', resolve));
});
test.afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

const shot = (p: Page, name: string) => p.screenshot({ path: test.info().outputPath(`${name}.png`) });
const toolbar = (p: Page) => p.locator('wc-site-review').getByRole('region', { name: 'Website review' });
const handle = (p: Page) => p.locator('wc-site-review').getByRole('button', { name: /^Open the review toolbar/ });
/** The toolbar's status line, read even while the toolbar is collapsed. */
const hint = (p: Page) => p.locator('wc-site-review .hint');

/** The centre of pin `n`'s marker lies inside the element. */
async function expectPinOn(p: Page, n: number, selector: string) {
  const marker = p.locator('wc-site-review').getByRole('button', { name: new RegExp(`^Pin ${n}:`) });
  await expect(marker).toBeVisible();
  await expect
    .poll(async () => {
      // A marker re-placed on scroll or resize has no box for a moment: look again.
      const m = await marker.boundingBox();
      const b = await p.locator(selector).boundingBox();
      if (!m || !b) return false;
      const [x, y] = [m.x + m.width / 2, m.y + m.height / 2];
      return x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;
    })
    .toBe(true);
}

/**
 * The toolbar's buttons are ≥ 44 px and what a tap at their centre reaches. They live in a shadow
 * root, where document.elementFromPoint answers the host: ask the shadow root instead.
 */
async function expectToolbarTappable(p: Page) {
  const report = await p
    .locator('wc-site-review')
    .getByRole('button', { name: /^(Comment|Show pins|Done)$/ })
    .evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        const hit = (el.getRootNode() as ShadowRoot).elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { name: el.textContent, w: r.width, h: r.height, hit: hit === el || el.contains(hit) };
      }),
    );
  expect(report).toHaveLength(3);
  for (const b of report) {
    expect(b.hit, `${b.name}: something else is under its centre`).toBe(true);
    expect(Math.min(b.w, b.h), `${b.name}: ${b.w}x${b.h}`).toBeGreaterThanOrEqual(44);
  }
}

/** Drops a pin on the Family plan's button (a click, or a finger's tap) and writes `text`. */
async function pinFamily(site: Page, text: string, touch: boolean) {
  await toolbar(site).getByRole('button', { name: 'Comment' }).click();
  const target = site.locator('.cta');
  await target.scrollIntoViewIfNeeded();
  await expect.poll(async () => (await target.boundingBox()) !== null).toBe(true);
  const box = (await target.boundingBox())!;
  // The finger lands right of pin 1 (dropped at 30 % by the mouse), not on its marker.
  if (touch) await site.touchscreen.tap(box.x + box.width * 0.8, box.y + box.height * 0.5);
  else await target.click({ position: { x: box.width * 0.3, y: box.height * 0.5 } });
  await site.locator('wc-site-review').getByLabel('Your comment').fill(text);
  await site.locator('wc-site-review').getByRole('button', { name: 'Pin comment' }).click();
  await expect(hint(site)).toHaveText(/Pin \d saved/, { timeout: 20_000 });
}

test('the live staging site: pins at 1280 px and by touch at 390 px, seen and resolved by the founder, final approval', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const email = `site-review-${Date.now()}@example.com`;
  await login(page, email, { name: 'Bela Baker' });
  const orderId = await payAdvanceInTestCheckout(page);

  // The founder, at stage 11, opens the final round on the staging site (no files).
  const adminCtx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  for (let stage = 2; stage <= 11; stage++)
    expect((await apiAs(admin, 'POST', `tracker/order/${orderId}/complete-next-stage`, {})).status).toBe(200);
  const opened = await apiAs(admin, 'POST', `admin/orders/${orderId}/reviews`, {
    kind: 'final',
    title: 'The finished website',
    fileIds: [],
    previewUrl: `${STAGING}/pricing`,
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);

  // Without a token the script does nothing: no toolbar, no request to our API.
  const plain = await page.context().newPage();
  const apiCalls: string[] = [];
  plain.on('request', (r) => r.url().startsWith(APP_URL) && !r.url().endsWith('/review.js') && apiCalls.push(r.url()));
  await plain.goto(`${STAGING}/pricing`);
  await plain.waitForLoadState('networkidle');
  await expect(plain.locator('wc-site-review')).toHaveCount(0);
  expect(apiCalls).toEqual([]);
  await plain.close();

  // The customer at 1280 px: "Review the live site" opens the staging site with the toolbar.
  await page.goto(`/status/${orderId}?tab=reviews`);
  await expect(page.getByText('Open the live site with “Review the live site”')).toBeVisible();
  const [site] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: 'Review the live site' }).click(),
  ]);
  const siteApi: IncomingHttpHeaders[] = [];
  site.on('request', (r) => r.url().startsWith(`${APP_URL}/api/`) && siteApi.push(r.headers()));
  await expect(toolbar(site)).toContainText('The finished website');
  await expect(toolbar(site)).toContainText('open for comments');
  // The token left the address bar at once; it never reached the staging server.
  expect(site.url()).toBe(`${STAGING}/pricing`);
  await shot(site, 'toolbar-1280');
  await pinFamily(site, 'Make this button green, please.', false);
  await expectPinOn(site, 1, '.cta');
  await shot(site, 'pin-1280');

  // The same customer on a phone (390 px, touch): a pin by a tap.
  const phoneCtx = await browser.newContext({
    ...devices['Pixel 7'],
    viewport: { width: 390, height: 844 },
    storageState: await page.context().storageState(),
  });
  const phone = await phoneCtx.newPage();
  await phone.goto(`/status/${orderId}?tab=reviews`);
  const [phoneSite] = await Promise.all([
    phoneCtx.waitForEvent('page'),
    phone.getByRole('button', { name: 'Review the live site' }).click(),
  ]);
  // The page has a pin: on a touch screen the toolbar starts as a small handle in the corner.
  await expect(handle(phoneSite)).toBeVisible();
  await expect(handle(phoneSite)).toHaveAccessibleName('Open the review toolbar (1 pin on this page)');
  await expect(toolbar(phoneSite)).toHaveCount(0);
  const folded = (await handle(phoneSite).boundingBox())!;
  expect(folded.height).toBeLessThanOrEqual(48);
  expect(folded.width).toBeLessThanOrEqual(120);
  await shot(phoneSite, 'handle-390');
  await handle(phoneSite).tap();
  await expect(toolbar(phoneSite)).toContainText('The finished website');
  await expectNoSidewaysScroll(phoneSite);
  await expectToolbarTappable(phoneSite);
  await pinFamily(phoneSite, 'On my phone the text is cut off.', true);
  await expectPinOn(phoneSite, 2, '.cta');
  // After the pin the toolbar steps aside again; the handle counts the page's pins.
  await expect(handle(phoneSite)).toHaveAccessibleName('Open the review toolbar (2 pins on this page)');
  await shot(phoneSite, 'pins-390');

  // A page shorter than the screen, its footer at the bottom: the open toolbar pads the page, so the
  // footer scrolls clear above it, and a tap pins the footer, not the toolbar.
  await phoneSite.goto(`${STAGING}/short`);
  await expect(handle(phoneSite)).toBeVisible();
  await handle(phoneSite).tap();
  await expect(toolbar(phoneSite)).toContainText('The finished website');
  const footer = phoneSite.locator('footer');
  const footerClear = async () => {
    const f = await footer.boundingBox();
    const bar = await toolbar(phoneSite).boundingBox();
    return !!f && !!bar && f.y + f.height <= bar.y;
  };
  await phoneSite.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(footerClear).toBe(true);
  await expectNoSidewaysScroll(phoneSite);
  await shot(phoneSite, 'short-page-open-390');
  // Commenting adds a hint line to the toolbar: scrolled to the end, the footer stays clear of it.
  await toolbar(phoneSite).getByRole('button', { name: 'Comment' }).tap();
  await expect(hint(phoneSite)).toContainText('Click or tap the element');
  await expect.poll(footerClear).toBe(true);
  const foot = (await footer.boundingBox())!;
  await phoneSite.touchscreen.tap(foot.x + foot.width / 2, foot.y + foot.height / 2);
  await expect(phoneSite.locator('wc-site-review').getByLabel('Your comment')).toBeVisible();
  await phoneSite.locator('wc-site-review').getByLabel('Your comment').fill('The footer needs our phone number.');
  await phoneSite.locator('wc-site-review').getByRole('button', { name: 'Pin comment' }).click();
  await expect(hint(phoneSite)).toHaveText('Pin 1 saved.', { timeout: 20_000 });
  await expectPinOn(phoneSite, 1, 'footer');
  // Collapsed, the page keeps padding for the handle only.
  await expect(handle(phoneSite)).toBeVisible();
  const padding = await phoneSite.evaluate(() => parseFloat(getComputedStyle(document.body).paddingBottom));
  expect(padding).toBeLessThanOrEqual(64);
  await shot(phoneSite, 'short-page-pinned-390');

  // Neither the staging server nor our API saw the token in an address or a Referer.
  expect(seen.filter((r) => JSON.stringify(r).includes('wc-review'))).toEqual([]);
  expect(siteApi.filter((h) => h.referer)).toEqual([]);

  // The founder sees both pins with their place and screenshot, and opens "Show on the site".
  await admin.goto(`/admin/orders/${orderId}?tab=reviews`);
  const pins = admin.getByTestId('pin-comment');
  await expect(pins).toHaveCount(3);
  await expect(pins.nth(0)).toContainText(/\/pricing · 1280 × 800 · Chrome (Windows|Linux)/);
  await expect(pins.nth(1)).toContainText('/pricing · 390 × 844 · Chrome Android');
  await expect(pins.nth(2)).toContainText('/short · 390 × 844 · Chrome Android');
  for (const n of [1, 2])
    await expect(admin.getByRole('button', { name: `Screenshot of pin ${n}, open large` }).locator('img')).toBeVisible();
  await admin.getByRole('button', { name: 'Screenshot of pin 2, open large' }).click();
  await expect(admin.getByRole('dialog', { name: 'Screenshot of pin 2' })).toBeVisible();
  await shot(admin, 'screenshot-large-1280');
  await admin.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expectAccessible(admin);
  await shot(admin, 'round-founder-1280');
  const [shown] = await Promise.all([adminCtx.waitForEvent('page'), admin.getByRole('button', { name: 'Show pin 1 on the site' }).click()]);
  await expect(toolbar(shown)).toContainText('The finished website');
  await expectPinOn(shown, 1, '.cta');
  await expect(shown.locator('wc-site-review').locator('.pin.hl')).toHaveCount(1);

  // A CSS change moves the button: after a reload the pin still sits on it.
  const before = (await shown.locator('.cta').boundingBox())!;
  moved = true;
  await shown.reload();
  await expect(toolbar(shown)).toContainText('The finished website');
  const after = (await shown.locator('.cta').boundingBox())!;
  expect(Math.abs(after.y - before.y) + Math.abs(after.x - before.x)).toBeGreaterThan(50);
  await expectPinOn(shown, 1, '.cta');
  await expectPinOn(shown, 2, '.cta');
  await shot(shown, 'pin-after-css-change-1280');

  // The founder answers and resolves both.
  await admin.getByRole('button', { name: 'Answer pin 1' }).click();
  await admin.getByLabel('Answer to pin 1').fill('Done — it is green now.');
  await admin.getByRole('button', { name: 'Send answer' }).click();
  await expect(admin.getByText('Done — it is green now.')).toBeVisible();
  for (const n of [1, 2, 3]) {
    await admin.getByRole('button', { name: `Resolve pin ${n}` }).click();
    await expect(admin.getByRole('button', { name: `Resolve pin ${n}` })).toHaveCount(0);
  }

  // The customer approves the final round: "Final Review" completes.
  await phone.reload();
  await expect(phone.getByText('Resolved').first()).toBeVisible();
  await expectNoSidewaysScroll(phone);
  await shot(phone, 'round-customer-390');
  await page.reload();
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, approve' }).click();
  await expect(page.getByTestId('review-state').first()).toHaveText('Approved');
  await shot(page, 'round-customer-1280');
  await page.goto(`/status/${orderId}`);
  await expect(page.getByTestId('tracker-count')).toHaveText('12/15 Completed');

  // The round is decided: the site token stops working (the toolbar says so on the next load).
  await site.reload();
  await expect(toolbar(site)).toContainText(/expired or the round was decided/);
  await phoneCtx.close();
  await adminCtx.close();
});
