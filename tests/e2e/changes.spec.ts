import { formatMoney } from '../../src/domain/money.ts';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { formatDueDate } from '../../src/domain/delivery-date.ts';
import { checkAtBothWidths, expectAccessible, expectNoSidewaysScroll } from './helpers/a11y.ts';
import { login } from './helpers/auth.ts';
import { apiAs, deliverOrder, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL } from './ports.ts';

// Change requests priced and paid mid-project, and add-ons (docs/decisions/250-change-requests.md,
// 251-change-due-date.md, 260-change-events-and-waiting.md), in Chromium at 390 and 1280 px with
// axe: asked, quoted, agreed to and paid in the test checkout; the due date, the new total and the
// document on both sides; an add-on paid directly; an included change; a declined quote; a support
// request quoted as a change. The e2e instance runs TAX_REGIME=none: no "+ GST" after the amounts.

const check = (page: Page, name: string) => checkAtBothWidths(page, process.env.SHOTS_DIR ?? test.info().outputPath(), name);

async function owner(browser: Browser) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await ctx.newPage();
  await login(admin, ADMIN_EMAIL);
  return admin;
}

/** A customer with a paid advance in rupees (chosen on /pay), so the quotes read "₹8,000". */
async function customerWithOrder(page: Page, who: string) {
  await login(page, `${who}-${Date.now()}@example.com`, { name: 'Chitra Changes' });
  await page.goto('/pay');
  await page.waitForLoadState('networkidle');
  await page.getByTestId('currency-select').selectOption('INR');
  await expect(page.getByTestId('amount-due')).toContainText('₹');
  return payAdvanceInTestCheckout(page);
}

/** The founder opens a UI round and the customer approves it: the due date is set (decision 147). */
async function approveUi(admin: Page, page: Page, orderId: string) {
  const opened = await apiAs(admin, 'POST', `admin/orders/${orderId}/reviews`, {
    kind: 'ui',
    title: 'Home page',
    fileIds: [],
    previewUrl: 'https://preview.example.com/v1',
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  const decided = await apiAs(page, 'POST', `orders/${orderId}/reviews/${opened.body.review.id}/decision`, { decision: 'approve' });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return (await apiAs(page, 'GET', `status/getStatus/order/${orderId}`)).body.dueDate as string;
}

const plusDays = (isoDay: string, days: number) => {
  const d = new Date(`${isoDay}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

test('a change asked, quoted ₹8,000 and 5 days, agreed to and paid: the due date, the new total and the document on both sides', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const orderId = await customerWithOrder(page, 'change-blog');
  const admin = await owner(browser);
  const due = await approveUi(admin, page, orderId);

  // The customer asks.
  await page.goto(`/status/${orderId}`);
  const panel = page.getByTestId('changes-panel');
  await panel.getByLabel('What do you need?').fill('Add a blog');
  await panel.getByLabel('Details (optional)').fill('A blog with categories and an RSS feed.');
  await panel.getByRole('button', { name: 'Ask for a quote' }).click();
  const blog = panel.getByTestId('change').filter({ hasText: 'Add a blog' });
  await expect(blog).toContainText('Add a blog — waiting for a quote');
  await expect(blog).toContainText('Waiting for our quote');
  await check(page, 'changes-panel-requested');

  // The founder: in the inbox, then quotes it on the order page.
  await admin.goto('/admin');
  const inbox = admin.getByTestId('action-inbox');
  await expect(inbox.getByRole('link', { name: new RegExp(`Change request waiting for our quote · ${orderId}`) })).toBeVisible();
  await inbox.getByRole('link', { name: new RegExp(`Change request waiting for our quote · ${orderId}`) }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}\\?tab=progress$`));
  const adminBlog = admin.getByTestId('admin-change').filter({ hasText: 'Add a blog' });
  await expect(adminBlog).toContainText('Waiting for your quote');
  await check(admin, 'admin-changes-requested');
  await adminBlog.getByLabel('Amount (INR, before GST)').fill('8000');
  await adminBlog.getByLabel('Extra days').fill('5');
  await adminBlog.getByRole('button', { name: 'Send quote' }).click();
  await expect(adminBlog).toContainText('Waiting for the customer');

  // The customer: "change to accept" on My Orders, the quote on the order page.
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'My Orders' }).click();
  const waiting = page.locator('[data-testid="order-waiting"]:visible');
  await expect(waiting.getByRole('link', { name: 'change to accept' })).toBeVisible();
  await waiting.getByRole('link', { name: 'change to accept' }).click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}(\\?tab=progress)?$`));
  await expect(blog.getByText('Add a blog — ₹8,000 · delivery moves by 5 days', { exact: true })).toBeVisible();
  await expect(blog.getByRole('button', { name: 'Accept and pay ₹8,000' })).toBeDisabled();
  await check(page, 'changes-panel-quoted');
  await blog.getByRole('checkbox', { name: 'I agree to this change' }).check();
  await blog.getByRole('button', { name: 'Accept and pay ₹8,000' }).click();
  await expect(page.getByText('TEST MODE — no real money moves')).toBeVisible();
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();

  // Back on the order: accepted, the date 5 days later and why, the new total, the document.
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));
  await expect(blog).toHaveAttribute('data-state', 'accepted', { timeout: 15_000 });
  await expect(blog).toContainText('Accepted and paid');
  await expect(page.getByTestId('estimated-delivery')).toHaveText(`Estimated delivery: ${formatDueDate(plusDays(due, 5))}`);
  await expect(page.getByTestId('changes-total')).toContainText('Changes accepted: 1 · delivery moved by 5 days');
  // The new total is the order account's, the change included (docs/decisions/320-order-ledger.md).
  const statement = (await apiAs(page, 'GET', `orders/${orderId}/statement`)).body as { totals: { charged: number } };
  await expect(page.getByTestId('changes-new-total')).toContainText(
    `New total: ${formatMoney(statement.totals.charged, { symbol: '₹', minorDigits: 2 })}`,
  );
  await expect(page.getByTestId('changes-moved')).toHaveText('Changes moved the delivery by 5 days; the date shown includes them.');
  const status = (await apiAs(page, 'GET', `status/getStatus/order/${orderId}`)).body;
  expect(status.dueDate).toBe(plusDays(due, 5));
  const changes = (await apiAs(page, 'GET', `orders/${orderId}/changes`)).body.changes as { title: string; invoiceId: string | null }[];
  const invoiceId = changes.find((c) => c.title === 'Add a blog')!.invoiceId;
  expect(invoiceId).toEqual(expect.any(String));
  const pdf = await page.evaluate(async (id) => {
    const r = await fetch(`/api/v1/invoices/${id}/pdf`, { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
    return { status: r.status, type: r.headers.get('content-type') };
  }, invoiceId);
  expect(pdf).toEqual({ status: 200, type: 'application/pdf' });
  await check(page, 'changes-panel-accepted');

  // The founder sees the same date, the accepted change and its invoice.
  await admin.goto(`/admin/orders/${orderId}`);
  await expect(admin.getByTestId('admin-due-date')).toContainText(`Due ${formatDueDate(plusDays(due, 5))}`);
  await expect(adminBlog).toHaveAttribute('data-state', 'accepted');
  await expect(admin.getByTestId('admin-changes-moved')).toHaveText('Changes moved the delivery by 5 days; the date shown includes them.');
  await expect(adminBlog).toContainText('Add a blog — ₹8,000 · delivery moves by 5 days');
  // Its Price card adds up: the order's own total, then the change, then the account's charge in all.
  const inr = (minor: number) => formatMoney(minor, { symbol: '₹', minorDigits: 2 });
  const detail = (await apiAs(admin, 'GET', `admin/orders/${orderId}`)).body as { order: { lines: { key: string; amount: number }[] } };
  const orderTotal = detail.order.lines.find((l) => l.key === 'total')!.amount;
  await expect(admin.getByTestId('admin-order-total')).toHaveText(inr(orderTotal));
  await expect(admin.getByTestId('admin-changes-total')).toHaveText(inr(statement.totals.charged - orderTotal));
  await expect(admin.getByTestId('admin-charged-total')).toHaveText(inr(statement.totals.charged));
  expect(statement.totals.charged - orderTotal).toBe(800_000);
  const invoices = (await apiAs(admin, 'GET', `admin/orders/${orderId}/invoices`)).body;
  expect(JSON.stringify(invoices)).toContain(invoiceId!);
  await check(admin, 'admin-changes-accepted');
});

test('an add-on paid directly, a change included at no charge, a declined quote with its reason', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const orderId = await customerWithOrder(page, 'change-extras');
  const admin = await owner(browser);

  // The catalogue in the back office.
  await admin.goto('/admin/addons');
  await expect(admin.getByTestId('addon-row').filter({ hasText: 'Advanced SEO' })).toBeVisible();
  await check(admin, 'admin-addons');

  // An add-on from the order page arrives quoted: agreed to and paid at once.
  await page.goto(`/status/${orderId}`);
  const panel = page.getByTestId('changes-panel');
  await panel.getByRole('button', { name: 'Request Advanced SEO' }).click();
  const seo = panel.getByTestId('change').filter({ hasText: 'Advanced SEO' });
  await expect(seo).toHaveAttribute('data-state', 'quoted');
  await expect(seo.getByText(/^Advanced SEO — ₹16,915 · delivery moves by 5 days$/)).toBeVisible();
  await seo.getByRole('checkbox', { name: 'I agree to this change' }).check();
  await seo.getByRole('button', { name: /^Accept and pay/ }).click();
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(seo).toHaveAttribute('data-state', 'accepted', { timeout: 15_000 });

  // /pricing lists the same extras under the plan card, in the currency the visitor chose.
  await page.goto('/pricing');
  const extras = page.getByTestId('optional-extras');
  await expect(extras.getByRole('heading', { name: 'Optional extras' })).toBeVisible();
  await expect(extras.getByTestId('extra').filter({ hasText: 'Advanced SEO' })).toContainText('₹16,915 · 5 extra days');
  await check(page, 'pricing-extras');

  // The founder raises one included at no charge, and quotes another.
  await admin.goto(`/admin/orders/${orderId}`);
  const raise = admin.getByTestId('raise-change');
  await raise.getByLabel('Title').fill('A contact form on every page');
  await raise.getByLabel('Extra days').fill('2');
  await raise.getByRole('checkbox', { name: 'Included at no charge' }).check();
  await raise.getByRole('button', { name: 'Raise change' }).click();
  await expect(admin.getByTestId('admin-change').filter({ hasText: 'A contact form on every page' })).toHaveAttribute(
    'data-state',
    'included',
  );
  await raise.getByLabel('Title').fill('An animated hero');
  await raise.getByLabel(/^Amount/).fill('3000');
  await raise.getByRole('button', { name: 'Raise change' }).click();
  await expect(admin.getByTestId('admin-change').filter({ hasText: 'An animated hero' })).toHaveAttribute('data-state', 'quoted');

  // The customer: the included one needs no payment; the quote is declined with a reason.
  await page.goto(`/status/${orderId}`);
  const included = panel.getByTestId('change').filter({ hasText: 'A contact form on every page' });
  await expect(included).toContainText('A contact form on every page — included at no charge · delivery moves by 2 days');
  await expect(included.getByRole('button')).toHaveCount(0);
  const hero = panel.getByTestId('change').filter({ hasText: 'An animated hero' });
  await hero.getByRole('button', { name: 'Decline' }).click();
  await hero.getByLabel('Why not? (optional)').fill('Not in this budget.');
  await check(page, 'changes-panel-declining');
  await hero.getByRole('button', { name: 'Decline this quote' }).click();
  await expect(hero).toHaveAttribute('data-state', 'declined');
  await expect(hero).toContainText('Your reason: Not in this budget.');
  await admin.reload();
  await expect(admin.getByTestId('admin-change').filter({ hasText: 'An animated hero' })).toContainText('Declined: Not in this budget.');
  await check(admin, 'admin-changes-mixed');
});

test('a support request for a change is quoted as a change on its delivered order', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const orderId = await customerWithOrder(page, 'change-support');
  const admin = await owner(browser);
  await deliverOrder(admin, page, orderId, 'https://delivered.example.com');
  const opened = await apiAs(page, 'POST', `orders/${orderId}/support/requests`, {
    category: 'change',
    title: 'A French version',
    description: 'All pages in French too.',
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);

  await admin.goto(`/admin/support/${opened.body.request.id}`);
  await admin.getByRole('link', { name: 'Quote this as a change' }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
  const raise = admin.getByTestId('raise-change');
  await expect(raise.getByLabel('Title')).toHaveValue('A French version');
  await expect(raise.getByLabel('Description (optional)')).toHaveValue('All pages in French too.');
  await raise.getByLabel(/^Amount/).fill('12000');
  await raise.getByLabel('Extra days').fill('7');
  await raise.getByRole('button', { name: 'Raise change' }).click();
  await expect(admin.getByTestId('admin-change').filter({ hasText: 'A French version' })).toContainText(
    'A French version — ₹12,000 · delivery moves by 7 days',
  );
  await check(admin, 'admin-changes-from-support');
});

test("@mobile the changes panel and the founder's changes at 390 px", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const orderId = await customerWithOrder(page, 'change-mobile');
  await page.goto(`/status/${orderId}`);
  const panel = page.getByTestId('changes-panel');
  await panel.getByLabel('What do you need?').fill('Add a blog');
  await panel.getByRole('button', { name: 'Ask for a quote' }).click();
  await expect(panel.getByTestId('change')).toContainText('Add a blog — waiting for a quote');
  const admin = await owner(browser);
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto(`/admin/orders/${orderId}`);
  const blog = admin.getByTestId('admin-change').filter({ hasText: 'Add a blog' });
  await blog.getByLabel('Amount (INR, before GST)').fill('8000');
  await blog.getByLabel('Extra days').fill('5');
  await blog.getByRole('button', { name: 'Send quote' }).click();
  await expect(blog).toContainText('Waiting for the customer');
  await expectNoSidewaysScroll(admin);
  await expectAccessible(admin);
  await page.reload();
  await expect(panel.getByText('Add a blog — ₹8,000 · delivery moves by 5 days', { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
});
