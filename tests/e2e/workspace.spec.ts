import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './helpers/a11y.ts';
import { dueDateAfter, formatDueDate } from '../../src/domain/delivery-date.ts';
import { login } from './helpers/auth.ts';
import { DESIGN_ABOUT, DESIGN_HOME, LOGO } from './helpers/images.ts';
import { apiAs, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL, CONTROL_URL, MAILBOX_URL } from './ports.ts';

interface Mail {
  subject: string;
  text: string;
}
const mailsTo = async (to: string): Promise<Mail[]> =>
  (await (await fetch(`${MAILBOX_URL}/messages?to=${encodeURIComponent(to)}`)).json()) as Mail[];

// In the browser at 390 px (touch) and 1280 px: the order's workspace as the
// customer and the founder use it — brief, files, a design review with pins and two rounds, the
// approval that completes "UI Review" and sets the delivery date, and the live message thread.

const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: test.info().outputPath(`${name}-${test.info().project.name}.png`), fullPage: true });
};

const tab = async (page: Page, name: string) => {
  await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
  await expect(page.getByRole('tab', { name: new RegExp(`^${name}`) })).toHaveAttribute('aria-selected', 'true');
};

/** The round shown first (the newest), as a region of the page. */
const newestRound = (page: Page) =>
  page
    .getByRole('tabpanel')
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: /· round \d+$/ }) })
    .first();

/** A pin by a pointer: a finger's tap on a phone (hasTouch), a mouse click on a desktop, at fractions of the image. */
async function pointAt(page: Page, surface: Locator, fx: number, fy: number) {
  await surface.scrollIntoViewIfNeeded();
  const box = (await surface.boundingBox())!;
  if (test.info().project.name === 'mobile') await page.touchscreen.tap(box.x + box.width * fx, box.y + box.height * fy);
  else await surface.click({ position: { x: box.width * fx, y: box.height * fy } });
}

test('the order workspace: brief, files, a design review with pins, approval, delivery date and live messages @mobile', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  const mobile = test.info().project.name === 'mobile';
  const email = `workspace-${mobile ? 'm' : 'd'}-${Date.now()}@example.com`;

  // The customer pays the advance (ticking the terms).
  await login(page, email, { name: 'Wanda Workspace' });
  const orderId = await payAdvanceInTestCheckout(page);
  await page.goto(`/status/${orderId}`);
  await expect(page.getByRole('tab', { name: 'Progress' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tracker')).toBeVisible();
  await expect(page.getByTestId('estimated-delivery')).toHaveCount(0);

  // Brief: typed answers are saved as a draft (they survive a reload), then submitted once.
  await tab(page, 'Brief');
  await expect(page).toHaveURL(/\?tab=brief$/);
  await page.getByLabel('Business name').fill('Wanda’s Bakery');
  await expect(page.getByTestId('brief-save')).toContainText('Saved');
  await page.reload();
  await expect(page.getByLabel('Business name')).toHaveValue('Wanda’s Bakery');
  await page.getByLabel('What does your business do?').fill('Sourdough bread and cakes, baked every morning.');
  await page.getByLabel('Pages you want').fill('Home\nMenu\nContact');
  await page.getByLabel('Websites you like').fill('example.com');
  await page.getByRole('radio', { name: 'I need a domain' }).check();
  await page.getByRole('radio', { name: 'Partly ready' }).check();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Submit brief' }).click();
  await expect(page.getByTestId('brief-state')).toContainText('Sent');
  await shot(page, 'customer-brief');

  // Files: the customer uploads the logo; it is listed with who, size and type, with a thumbnail.
  await tab(page, 'Files');
  await page.getByLabel('Upload files').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO });
  const logo = page.getByTestId('order-file').filter({ hasText: 'logo.png' });
  await expect(logo).toContainText('PNG image');
  await expect(logo).toContainText('You');
  await expect(logo.locator('img')).toHaveAttribute('src', /^blob:/);
  await expectAccessible(page);

  // The founder sees the brief, uploads two designs, moves the tracker to "UI Completed" and opens a `ui` round.
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  await admin.goto(`/admin/orders/${orderId}?tab=brief`);
  await expect(admin.getByTestId('brief-state')).toContainText('Submitted');
  await expect(admin.getByText('Wanda’s Bakery')).toBeVisible();
  await expect(admin.getByRole('textbox')).toHaveCount(0);
  await tab(admin, 'Files');
  await expect(admin.getByTestId('order-file').filter({ hasText: 'logo.png' })).toContainText('The customer');
  await admin.getByLabel('Upload files').setInputFiles([
    { name: 'home.png', mimeType: 'image/png', buffer: DESIGN_HOME },
    { name: 'about.png', mimeType: 'image/png', buffer: DESIGN_ABOUT },
  ]);
  await expect(admin.getByTestId('order-file')).toHaveCount(3);
  await tab(admin, 'Progress');
  for (const stage of ['UI Discussion', 'UI Started', 'UI Completed']) {
    await admin.getByRole('button', { name: `Complete “${stage}”` }).click();
    await expect(admin.getByRole('status').filter({ hasText: `"${stage}" completed` })).toBeVisible();
  }
  await tab(admin, 'Reviews');
  await admin.getByRole('button', { name: 'Open a review round' }).click();
  await admin.getByLabel('Title').fill('Home and About, first look');
  await admin.getByLabel('Note to the customer (optional)').fill('Two pages to start with.');
  await admin.getByRole('checkbox', { name: 'home.png' }).check();
  await admin.getByRole('checkbox', { name: 'about.png' }).check();
  await expectAccessible(admin);
  await admin.getByRole('button', { name: 'Open the round' }).click();
  await expect(admin.getByRole('heading', { name: 'UI design · round 1' })).toBeVisible();
  await expect(admin.getByTestId('review-state').first()).toHaveText('Waiting for the customer');

  // The brief is read-only now that "UI Started" is completed.
  await tab(page, 'Brief');
  await expect(page.getByTestId('brief-state')).toContainText('can no longer be changed');
  await expect(page.getByRole('textbox')).toHaveCount(0);

  // The customer drops two pins: one by a tap (phone) or click, one from the keyboard, and asks for changes.
  await tab(page, 'Reviews');
  const round = newestRound(page);
  await expect(round.getByRole('heading', { name: 'UI design · round 1' })).toBeVisible();
  const [home, about] = [round.getByTestId('pin-surface').nth(0), round.getByTestId('pin-surface').nth(1)];
  await expect(home.locator('img')).toHaveAttribute('src', /^blob:/);
  if (mobile) {
    // On a phone a design opens full size (wider than the screen, to pan and pinch), and a tap pins
    // nothing until "Add a pin" turns pinning on.
    const full = round.getByTestId('design-full-size').first();
    await expect(full).toBeVisible();
    expect(await full.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    await shot(page, 'customer-review-phone-full-size');
    await pointAt(page, home, 0.25, 0.3);
    await expect(page.getByLabel('Comment for pin 1')).toHaveCount(0);
    await round.getByRole('button', { name: 'Add a pin to design 1' }).click();
  }
  await pointAt(page, home, 0.25, 0.3);
  await page.getByLabel('Comment for pin 1').fill('This heading, bigger please');
  await page.getByRole('button', { name: 'Save pin' }).click();
  await expect(round.getByRole('button', { name: 'Pin 1: This heading, bigger please' })).toBeVisible();
  // Edit and delete their own pin while the agency has not answered it.
  await round.getByRole('button', { name: 'Edit pin 1' }).click();
  await round.getByLabel('Pin 1', { exact: true }).fill('This heading, much bigger please');
  await round.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(round.getByRole('button', { name: 'Pin 1: This heading, much bigger please' })).toBeVisible();
  if (mobile) await round.getByRole('button', { name: 'Add a pin to design 1' }).click();
  await pointAt(page, home, 0.7, 0.7);
  await page.getByLabel('Comment for pin 2').fill('A pin I take back');
  await page.getByRole('button', { name: 'Save pin' }).click();
  await round.getByRole('button', { name: 'Delete pin 2' }).click();
  await round.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(round.getByRole('button', { name: /^Pin 2: A pin I take back/ })).toHaveCount(0);
  if (mobile) await round.getByRole('button', { name: 'Add a pin to design 2' }).click();
  await about.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Enter');
  await page.getByLabel('Comment for pin 2').fill('Swap these two photos');
  await page.getByRole('button', { name: 'Save pin' }).click();
  await expect(round.getByRole('button', { name: 'Pin 2: Swap these two photos' })).toBeVisible();
  // Where the pins were stored: fractions of the image (the tap's spot; the keyboard's 0.5 + 5 × 0.02, 0.5 + 0.1).
  const stored = (await apiAs(page, 'GET', `orders/${orderId}/reviews`)).body.reviews[0].comments as {
    x: number;
    y: number;
    text: string;
  }[];
  expect(stored).toHaveLength(2);
  const one = stored.find((c) => c.text.startsWith('This heading'))!;
  const two = stored.find((c) => c.text.startsWith('Swap'))!;
  expect(Math.abs(one.x - 0.25)).toBeLessThan(0.02);
  expect(Math.abs(one.y - 0.3)).toBeLessThan(0.02);
  expect(two.x).toBeCloseTo(0.6, 5);
  expect(two.y).toBeCloseTo(0.6, 5);
  await expectAccessible(page);
  await shot(page, 'customer-review-pins');
  await round.getByLabel(/^Comment \(needed to ask for changes/).fill('Looks promising — see the two pins.');
  // "Request changes" asks first, like "Approve"; another tab of the customer follows the decision live.
  const otherTab = await page.context().newPage();
  await otherTab.goto(`/status/${orderId}?tab=reviews`);
  await expect(otherTab.getByRole('button', { name: 'Approve' })).toBeVisible();
  await round.getByRole('button', { name: 'Request changes' }).click();
  await expect(round.getByRole('group', { name: 'Confirm the request for changes' })).toBeVisible();
  await expectAccessible(page);
  await round.getByRole('button', { name: 'Yes, request changes' }).click();
  await expect(page.getByTestId('review-state').first()).toHaveText('Changes requested');
  await expect(otherTab.getByTestId('review-state').first()).toHaveText('Changes requested');
  await expect(otherTab.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await otherTab.close();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // The founder answers and resolves both pins, then opens round 2.
  await admin.reload();
  await expect(admin.getByTestId('review-state').first()).toHaveText('Changes requested');
  await expect(admin.getByText('“Looks promising — see the two pins.”')).toBeVisible();
  await admin.getByRole('button', { name: 'Answer pin 1' }).click();
  await admin.getByLabel('Answer to pin 1').fill('Done: 20% bigger.');
  await admin.getByRole('button', { name: 'Send answer' }).click();
  await expect(admin.getByText('Done: 20% bigger.')).toBeVisible();
  await admin.getByRole('button', { name: 'Resolve pin 1' }).click();
  await admin.getByRole('button', { name: 'Resolve pin 2' }).click();
  await expect(admin.getByRole('button', { name: /^Pin \d \(resolved\)/ })).toHaveCount(2);
  await expectAccessible(admin);
  await shot(admin, 'founder-review-resolved');
  await admin.getByRole('button', { name: 'Open a review round' }).click();
  await admin.getByRole('checkbox', { name: 'home.png' }).check();
  await admin.getByRole('checkbox', { name: 'about.png' }).check();
  await admin.getByRole('button', { name: 'Open the round' }).click();
  await expect(admin.getByRole('heading', { name: 'UI design · round 2' })).toBeVisible();

  // The customer approves round 2; the earlier round is folded below with its resolved pins.
  await page.reload();
  await expect(newestRound(page).getByRole('heading', { name: 'UI design · round 2' })).toBeVisible();
  await expect(page.getByText(/UI design · round 1: Home and About, first look/)).toBeVisible();
  await newestRound(page).getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('button', { name: 'Yes, approve' }).click();
  const approvedOn = new Date();
  await expect(page.getByTestId('review-state').first()).toHaveText('Approved');
  await expect(page.getByRole('status').filter({ hasText: 'You approved UI design round 2' })).toBeVisible();

  // The tracker: "UI Review" completed, and the delivery date 28 days after the approval.
  await tab(page, 'Progress');
  await expect(page.getByTestId('stage').filter({ hasText: 'UI Review' })).toHaveAttribute('data-done', 'true');
  await expect(page.getByTestId('estimated-delivery')).toHaveText(`Estimated delivery: ${formatDueDate(dueDateAfter(approvedOn, 28))}`);
  await expectAccessible(page);
  await shot(page, 'customer-progress-approved');
  // The founder's tracker says who approved.
  await admin.goto(`/admin/orders/${orderId}`);
  await expect(admin.getByText('The customer approved the UI design (review round 2).')).toBeVisible();
  // The founder's list shows the days left.
  await admin.goto('/admin/orders');
  await admin.getByLabel('Search by order id, e-mail or name').fill(orderId);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin.getByTestId('days-left')).toHaveCount(1);
  await expect(admin.getByTestId('days-left')).toContainText('28 days left');

  // Messages, both ways, live: each side sees the other's message without reloading.
  await page.goto(`/status/${orderId}?tab=messages`);
  await admin.goto(`/admin/orders/${orderId}?tab=messages`);
  await expect(page.getByTestId('messages-live')).toHaveText('Live');
  await expect(admin.getByTestId('messages-live')).toHaveText('Live');
  await page.getByLabel('Message', { exact: true }).fill('Hello! When can I see the menu page?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('order-message').filter({ hasText: 'When can I see the menu page?' })).toHaveAttribute(
    'data-sender',
    'customer',
  );
  await expect(admin.getByTestId('order-message').filter({ hasText: 'When can I see the menu page?' })).toBeVisible();
  await admin.getByLabel('Message', { exact: true }).fill('Next week — here is the home page as approved.');
  await admin.getByText(/^Attach files/).click();
  await admin.getByRole('checkbox', { name: 'home.png' }).check();
  await admin.getByRole('button', { name: 'Send' }).click();
  const reply = page.getByTestId('order-message').filter({ hasText: 'Next week — here is the home page as approved.' });
  await expect(reply).toHaveAttribute('data-sender', 'agency');
  await expect(reply.getByRole('button', { name: 'home.png' })).toBeVisible();
  await expectAccessible(page);
  await expectAccessible(admin);
  await shot(page, 'customer-messages');
  await shot(admin, 'founder-messages');

  // Unread: a message sent while the other side is away shows on their order list until they read it.
  await page.goto('/dashboard');
  await admin.getByLabel('Message', { exact: true }).fill('One more thing: the logo looks great.');
  await admin.getByRole('button', { name: 'Send' }).click();
  await expect(admin.getByTestId('order-message').filter({ hasText: 'One more thing' })).toBeVisible();
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'My Orders' }).click();
  const customerUnread = page.locator('[data-testid="unread-messages"]:visible');
  await expect(customerUnread).toHaveText('1 new message');
  await customerUnread.click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}\\?tab=messages$`));
  await expect(page.getByTestId('order-message').filter({ hasText: 'One more thing' })).toBeVisible();
  await admin.goto('/admin/orders');
  await page.getByLabel('Message', { exact: true }).fill('Thanks!');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('order-message').filter({ hasText: 'Thanks!' })).toBeVisible();
  await admin.getByLabel('Search by order id, e-mail or name').fill(orderId);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin.getByTestId('unread-messages')).toHaveText('1 new message');
  await admin.getByTestId('unread-messages').click();
  await expect(admin.getByTestId('order-message').filter({ hasText: 'Thanks!' })).toBeVisible();
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'My Orders' }).click();
  await expect(page.locator('[data-testid="orders-table"]:visible, [data-testid="orders-cards"]:visible')).toContainText(orderId);
  await expect(page.getByTestId('unread-messages')).toHaveCount(0);

  // The batched notice (decision 155): two messages while the customer is away become ONE e-mail
  // once ORDER_NOTIFY_DELAY_SECONDS have passed — the test stack's job pass "ten minutes later" —
  // and a second pass sends nothing more. The mail links the order; it never quotes a message.
  const noticeMails = async () => (await mailsTo(email)).filter((m) => m.subject === `News on your order ${orderId}`);
  const before = (await noticeMails()).length;
  await page.goto('/dashboard');
  await admin.goto(`/admin/orders/${orderId}?tab=messages`);
  for (const text of ['The menu page is ready.', 'And the contact page too.']) {
    await admin.getByLabel('Message', { exact: true }).fill(text);
    await admin.getByRole('button', { name: 'Send' }).click();
    await expect(admin.getByTestId('order-message').filter({ hasText: text })).toBeVisible();
  }
  const runJobs = async () => {
    const at = new Date(Date.now() + 10 * 60_000).toISOString();
    expect((await fetch(`${CONTROL_URL}/jobs/run?at=${encodeURIComponent(at)}`, { method: 'POST' })).ok).toBe(true);
  };
  await runJobs();
  await expect.poll(async () => (await noticeMails()).length, { timeout: 20_000 }).toBe(before + 1);
  const notice = (await noticeMails()).at(-1)!;
  expect(notice.text).toContain('2 new messages');
  expect(notice.text).toContain(`/status/${orderId}`);
  expect(notice.text).not.toContain('The menu page is ready.');
  await runJobs();
  await page.waitForTimeout(1_000);
  expect(await noticeMails()).toHaveLength(before + 1);
  await adminCtx.close();
});
