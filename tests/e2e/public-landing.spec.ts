import { expect, test, type Page } from '@playwright/test';
import { ADMIN_EMAIL, MAILBOX_URL } from './ports.ts';
import { login } from './helpers/auth.ts';

// Spec §2 "Landing page", §4 lead form states, §5 lead rules.

async function mailTo(to: string, match: (m: { subject: string; text: string }) => boolean) {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const res = await fetch(`${MAILBOX_URL}/messages?to=${encodeURIComponent(to)}`);
    const found = ((await res.json()) as { subject: string; text: string }[]).find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`no matching mail to ${to}`);
}

const leadButton = (page: Page) => page.getByTestId('lead-form').first().locator('button[type=submit]');

test('the server sends the hero, head tags and JSON-LD in the HTML', async ({ request }) => {
  const html = await (await request.get('/', { headers: { accept: 'text/html' } })).text();
  expect(html).toContain('Let&#x27;s Innovate Together');
  expect(html).toContain('Empowering New Ventures with Exceptional Website Solutions');
  expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
  expect(html).toMatch(/<link rel="canonical" href="http[^"]+\/"/);
  expect(html).toContain('<meta property="og:title"');
  expect(html).toContain('"@type":"Organization"');
  expect(html).toContain('<script type="application/json" id="site-config">');
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Sitemap: ');
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const p of ['/about', '/pricing', '/faqs', '/contact']) expect(sitemap).toContain(`${p}</loc>`);
});

test('lead by e-mail: toggle, states, native validation, stored and mailed to the admin @mobile', async ({ page, request }) => {
  await page.goto('/');
  await expect(leadButton(page)).toBeEnabled();
  await expect(page.getByRole('heading', { level: 1, name: "Let's Innovate Together" })).toBeVisible();
  const form = page.getByTestId('lead-form').first();
  await expect(form.getByRole('button', { name: 'Email Address' })).toHaveAttribute('aria-pressed', 'true');
  await expect(leadButton(page)).toHaveText('Get you website');
  // The form is a prerendered island that React takes over at the first interaction. A click before
  // that is replayed afterwards with the values typed by then (src/web/islands.ts): on a busy machine
  // the invalid address's click below was replayed after the valid one was typed, and sent it. Not
  // this test's subject: focusing the field hands the form to React first.
  const input = form.getByRole('textbox', { name: 'Email Address' });
  await input.focus();
  await expect(page.locator('[data-island][data-hydrated]').filter({ has: form })).toHaveCount(1);

  // A wrong address is stopped by the browser (spec §5: native messages only).
  await input.fill('Not-An-Email');
  await leadButton(page).click();
  expect(await input.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
  await expect(leadButton(page)).toHaveText('Get you website');

  // State 1 (loading) is visible while the request is in flight.
  const email = `lead-${Date.now()}@example.com`;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/v1/alert/sendEmail', async (route) => {
    await held;
    await route.continue();
  });
  await input.fill(email);
  await leadButton(page).click();
  await expect(leadButton(page)).toHaveAttribute('data-status', '1');
  await expect(leadButton(page).getByRole('status')).toBeAttached();
  release();
  await expect(leadButton(page)).toHaveText("We'll reach out to you!");

  // Any edit returns to idle.
  await input.press('End');
  await input.press('Backspace');
  await expect(leadButton(page)).toHaveText('Get you website');

  const mail = await mailTo(ADMIN_EMAIL, (m) => m.subject.includes(email));
  expect(mail.text).toContain('Page: /');
  void request;
});

test('a failing lead call still ends in the done state (spec §8)', async ({ page }) => {
  await page.route('**/api/v1/alert/sendEmail', (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.goto('/');
  await expect(leadButton(page)).toBeEnabled();
  await page.getByTestId('lead-form').first().getByRole('textbox', { name: 'Email Address' }).fill('fail@example.com');
  await leadButton(page).click();
  await expect(leadButton(page)).toHaveText("We'll reach out to you!");
});

test('lead by phone: country picker filters by name and code, phone rule, lead stored @mobile', async ({ page }) => {
  await page.goto('/');
  await expect(leadButton(page)).toBeEnabled();
  const form = page.getByTestId('lead-form').first();
  await form.getByRole('button', { name: 'Phone Number' }).click();
  await expect(form).toHaveAttribute('data-mode', 'phone');
  const trigger = form.getByTestId('country-code-trigger');
  // The visitor's country (India in the e2e geo fake; docs/decisions/336-tracker-and-phone-country.md).
  await expect(trigger).toHaveAccessibleName('Country code: India +91');

  await trigger.click();
  const search = page.getByRole('combobox', { name: 'Search country name or code' });
  await expect(search).toBeFocused();
  const options = page.getByRole('option');
  expect(await options.count()).toBeGreaterThanOrEqual(200);
  await expect(options.first()).toContainText('United States');
  expect((await options.first().boundingBox())!.height).toBeCloseTo(38, 0);
  await expect(options.first().locator('img')).toHaveAttribute('src', /\/assets\/us-[\w-]+\.svg$/);

  await search.fill('ind');
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toContainText('India');
  await expect(options.nth(1)).toContainText('Indonesia');
  await search.fill('+44');
  await expect(options.filter({ hasText: 'United Kingdom' })).toHaveCount(1);
  expect(await options.count()).toBe(4);
  await search.fill('1-24');
  await expect(options.filter({ hasText: 'Bahamas' })).toHaveCount(1);

  // Keyboard: arrows move, Enter picks.
  await search.fill('ind');
  await search.press('ArrowDown');
  await search.press('Enter');
  await expect(trigger).toHaveAccessibleName('Country code: Indonesia +62');
  await expect(trigger).toBeFocused();
  await trigger.press('ArrowDown');
  await page.getByRole('combobox', { name: 'Search country name or code' }).fill('india');
  await page.getByRole('option', { name: /India/ }).click();
  await expect(trigger).toHaveAccessibleName('Country code: India +91');

  const phone = form.getByRole('textbox', { name: 'Phone Number' });
  await phone.fill('1234');
  await leadButton(page).click();
  await expect(page.getByText('Please enter a valid phone number with 5 to 11 digits.')).toBeVisible();
  const digits = String(Date.now()).slice(-10);
  await phone.fill(digits);
  await expect(page.getByText('Please enter a valid phone number with 5 to 11 digits.')).toHaveCount(0);
  await leadButton(page).click();
  await expect(leadButton(page)).toHaveText("We'll reach out to you!");
  await mailTo(ADMIN_EMAIL, (m) => m.subject.includes(`+91 ${digits}`));
});

test('the founder finds the browser-submitted lead and contact message in the database', async ({ page, request }) => {
  const email = `stored-${Date.now()}@example.com`;
  await page.goto('/');
  await expect(leadButton(page)).toBeEnabled();
  await page.getByTestId('lead-form').first().getByRole('textbox', { name: 'Email Address' }).fill(email);
  await leadButton(page).click();
  await expect(leadButton(page)).toHaveText("We'll reach out to you!");

  await page.goto('/contact');
  const submit = page.getByTestId('contact-form').locator('button[type=submit]');
  await expect(submit).toBeEnabled();
  await page.getByLabel('Name').fill('Stored Contact');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Phone' }).fill('7700900123');
  await page.getByLabel('Message (optional)').fill('Please call me back');
  await submit.click();
  await expect(submit).toHaveText("We'll reach out to you!");

  await login(page, ADMIN_EMAIL);
  const headers = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` };
  const leads = await request.get('/api/v1/admin/leads?status=all', { headers });
  expect(leads.status()).toBe(200);
  expect((await leads.json()).items).toContainEqual(expect.objectContaining({ email, kind: 'email', page: '/' }));
  const contacts = await request.get('/api/v1/admin/contacts?status=all', { headers });
  expect(contacts.status()).toBe(200);
  expect((await contacts.json()).items).toContainEqual(
    expect.objectContaining({
      email,
      name: 'Stored Contact',
      phoneCode: '+91',
      phoneNumber: '7700900123',
      message: 'Please call me back',
      handledAt: null,
    }),
  );
});

test('feature cards slide in at 20% visibility and out when they leave; quality links jump to them', async ({ page }) => {
  await page.goto('/');
  await expect(leadButton(page)).toBeEnabled();
  const ids = ['delivery', 'design', 'performance', 'no_no_code', 'service'];
  for (const id of ids) await expect(page.locator(`section#${id}`)).toHaveCount(1);
  const design = page.getByTestId('feature-design');
  await expect(design).toHaveAttribute('data-visible', 'false');
  await page.getByRole('navigation', { name: 'What you get' }).getByRole('link', { name: 'Precise Design' }).click();
  await expect(page).toHaveURL(/#design$/);
  await expect(design).toHaveAttribute('data-visible', 'true');
  await expect(design).toHaveCSS('opacity', '1');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(design).toHaveAttribute('data-visible', 'false');
  // Images alternate sides.
  await expect(page.getByTestId('feature-delivery')).toHaveAttribute('data-from', 'right');
  await expect(page.getByTestId('feature-design')).toHaveAttribute('data-from', 'left');
});

test('landing top bar: hidden over the hero, then pinned with the active section underlined', async ({ page }) => {
  await page.goto('/');
  await expect(leadButton(page)).toBeEnabled();
  const bar = page.getByTestId('landing-top-bar');
  await expect(bar).toHaveAttribute('data-shown', 'false');
  await expect(bar).toBeHidden();
  await page.locator('#performance').scrollIntoViewIfNeeded();
  await page.evaluate(() => document.getElementById('performance')!.scrollIntoView({ block: 'start' }));
  await expect(bar).toHaveAttribute('data-shown', 'true');
  await expect(bar).toBeInViewport();
  await expect(bar.getByRole('link', { name: 'Great Performance' })).toHaveAttribute('aria-current', 'true');
  for (const label of ['Fast Delivery', 'Precise Design', 'Custom Code', 'Top-Notch Service'])
    await expect(bar.getByRole('link', { name: label })).toBeVisible();
  await page.mouse.wheel(0, 400);
  await expect(bar).toBeInViewport();
  await expect(bar.getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', '/contact');
  await expect(bar.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
});

test('landing top bar on a narrow screen shows only the active section @mobile', async ({ page, isMobile }) => {
  test.skip(!isMobile, 'narrow screens only');
  await page.goto('/');
  await expect(leadButton(page)).toBeEnabled();
  await page.evaluate(() => document.getElementById('no_no_code')!.scrollIntoView({ block: 'start' }));
  const bar = page.getByTestId('landing-top-bar');
  await expect(bar).toHaveAttribute('data-shown', 'true');
  await expect(bar.getByRole('link', { name: 'Custom Code' })).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Fast Delivery' })).toBeHidden();
  await expect(bar.getByRole('link', { name: 'Contact Sales' })).toBeVisible();
  // Decision 116: with the offer banner closed, the bar is the page's way to the plan.
  const pricing = bar.getByRole('link', { name: 'Pricing', exact: true });
  await expect(pricing).toHaveAttribute('href', '/pricing');
  await expect(pricing).toBeInViewport({ ratio: 1 });
});

test('the closing section repeats the lead form', async ({ page }) => {
  await page.goto('/');
  await expect(leadButton(page)).toBeEnabled();
  await expect(page.getByRole('heading', { name: 'Join the growing community' })).toBeVisible();
  await expect(page.getByTestId('lead-form')).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Reach Out to Us' })).toHaveAttribute('href', '/contact');
});
