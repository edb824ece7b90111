import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './helpers/a11y.ts';
import { emailAndCode, login } from './helpers/auth.ts';
import { apiAs, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL, MAILBOX_URL } from './ports.ts';

// Staff (decisions 191, 196), on the main stack (ADMIN_STEP_UP=off there): the owner invites a
// staff member on /admin/staff; the invitation arrives; the staff member signs in by code, lands in
// the back office and completes a stage of an order, but sees no owner menu entries, meets "Only
// the owner can see this" on an owner URL, and the API answers 403 to coupons and the audit log;
// the owner's audit log names the staff member; the owner removes them and their open back office
// is signed out at once.

/**
 * Full-page screenshots at 390 and 1280 px; at each width nothing scrolls sideways and every visible
 * button of the page's main part answers a tap at its centre (elementFromPoint). Left at 1280.
 */
async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width}px`).toBeLessThanOrEqual(width);
    const covered = await page.evaluate(() => {
      const bad: string[] = [];
      // An open modal is checked alone: what lies under it is meant to be covered.
      const scope = document.querySelector('dialog[open]') ?? document.querySelector('main')!;
      for (const el of scope.querySelectorAll<HTMLElement>('button, a[href]')) {
        if (!el.checkVisibility() || (el as HTMLButtonElement).disabled) continue;
        el.scrollIntoView({ block: 'center' });
        const r = el.getBoundingClientRect();
        if (r.width <= 2 || r.height <= 2) continue;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!hit || !(hit === el || el.contains(hit))) bad.push(`${el.textContent?.trim().slice(0, 40)} ← ${hit?.tagName ?? 'nothing'}`);
      }
      window.scrollTo(0, 0);
      return bad;
    });
    expect(covered, `${name} at ${width}px: controls covered`).toEqual([]);
    await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), `${name}-${width}.png`), fullPage: true });
  }
}

interface Mail {
  subject: string;
  text: string;
}
const mailsTo = async (email: string) => (await (await fetch(`${MAILBOX_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as Mail[];

test("staff: invited by the owner, work on an order, kept out of the owner's parts, removed and signed out at once", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const staffEmail = `staff-${stamp}@example.com`;

  // A paid order to work on, the way the other specs make one.
  const buyerCtx = await browser.newContext();
  const buyer = await buyerCtx.newPage();
  await login(buyer, `staff-buyer-${stamp}@example.com`, { name: 'Bea Buyer' });
  const orderId = await payAdvanceInTestCheckout(buyer);
  await buyerCtx.close();

  // The owner invites: a bad address first (the form says so), then the real one.
  const ownerCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await ownerCtx.newPage();
  await login(owner, ADMIN_EMAIL);
  await owner.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Staff' }).click();
  await expect(owner.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();
  const invite = owner.getByRole('form', { name: 'Invite a staff member' });
  await invite.getByLabel('E-mail address').fill('not-an-address');
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(invite.getByRole('alert')).toHaveText('Please enter a valid e-mail address.');
  await invite.getByLabel('E-mail address').fill(staffEmail);
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'Invitation sent' })).toHaveText(`Invitation sent to ${staffEmail}.`);
  const row = owner.getByTestId('staff-row').filter({ hasText: staffEmail });
  await expect(row).toContainText('Not signed in yet');
  await expect(row).toContainText(`by ${ADMIN_EMAIL}`);
  await expect(row).toContainText('Never');
  // Inviting the same person twice: the server's answer is shown under the field, not swallowed.
  await invite.getByLabel('E-mail address').fill(staffEmail);
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(invite.getByRole('alert')).not.toBeEmpty();
  await invite.getByLabel('E-mail address').fill('');
  await expectAccessible(owner);
  await shots(owner, 'owner-staff-list');

  // The invitation arrives in the mailbox.
  await expect.poll(async () => (await mailsTo(staffEmail)).length, { timeout: 15_000 }).toBeGreaterThan(0);

  // The staff member signs in by code, like anyone, and lands in the back office.
  const staffCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const staff = await staffCtx.newPage();
  await emailAndCode(staff, '/login', staffEmail);
  await staff.waitForURL(/\/(admin|signup\/enterDetails)$/);
  // A new team member gives only a name: no home address or phone "for your orders and invoices"
  // (docs/decisions/276-staff-onboarding-and-payment-ids.md).
  await expect(staff).toHaveURL(/\/signup\/enterDetails$/);
  await expect(staff.getByRole('heading', { name: 'Welcome to the team' })).toBeVisible();
  await expect(staff.getByText('for your orders and invoices')).toHaveCount(0);
  await expect(staff.getByRole('textbox', { name: 'Phone', exact: true })).toHaveCount(0);
  await expect(staff.getByLabel('Address')).toHaveCount(0);
  await expectAccessible(staff);
  await shots(staff, 'staff-details');
  await staff.getByLabel('Name', { exact: true }).fill('Sam Staff');
  await staff.getByRole('button', { name: 'Continue' }).click();
  await expect(staff).toHaveURL(/\/admin$/);
  await expect(staff.getByRole('heading', { name: 'Overview' })).toBeVisible();

  // Their menu holds their work only; the money on the overview is the owner's.
  const menu = staff.getByRole('navigation', { name: 'Back office' });
  await expect(menu.getByRole('link', { name: 'Orders' })).toBeVisible();
  for (const hidden of ['Coupons', 'Cashback', 'Customers', 'Audit log', 'Funnel', 'Open checkouts', 'Staff']) {
    await expect(menu.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
  }
  await expect(staff.getByText('Revenue received, last 30 days')).toHaveCount(0);
  await expect(staff.getByText('Cashback owed')).toHaveCount(0);
  // ADMIN_STEP_UP=off on this stack: the overview says what that risks.
  await expect(staff.getByTestId('step-up-off')).toContainText('not protected by a second factor');
  await shots(staff, 'staff-overview');

  // They complete a stage of the order.
  await menu.getByRole('link', { name: 'Orders' }).click();
  await staff.getByRole('link', { name: orderId }).click();
  await expect(staff.getByRole('heading', { name: `Order ${orderId}` })).toBeVisible();
  await staff.locator('#stage-note').fill('Kick-off call booked');
  await staff.getByRole('button', { name: /^Complete “/ }).click();
  await expect(staff.getByRole('heading', { name: 'Tracker — 2/15 completed' })).toBeVisible();
  // No refunds, invoices or link to the customer's page (all of their data) on the order for staff.
  await expect(staff.getByRole('heading', { name: 'Invoices' })).toHaveCount(0);
  await expect(staff.getByRole('link', { name: 'Bea Buyer' })).toHaveCount(0);
  await expect(staff.getByText('Bea Buyer').first()).toBeVisible();
  await expectAccessible(staff);
  await shots(staff, 'staff-order');

  // An owner URL opened directly: a clear page, not a broken screen.
  for (const path of ['/admin/coupons', '/admin/audit', '/admin/staff', '/admin/customers']) {
    await staff.goto(path);
    await expect(staff.getByRole('heading', { name: 'Only the owner can see this' })).toBeVisible();
  }
  await expectAccessible(staff);
  await shots(staff, 'staff-owner-only');

  // The server says the same with their token.
  for (const path of ['admin/coupons', 'admin/audit']) {
    const res = await apiAs(staff, 'GET', path);
    expect(res.status, path).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN', message: 'Only the owner can do this.' });
  }

  // The owner's list now knows them; the owner's audit log names them for the stage.
  await owner.reload();
  await expect(row).toContainText('Sam Staff');
  await expect(row).not.toContainText('Never');
  await owner.goto('/admin/audit');
  await owner.getByLabel('Owner or staff e-mail').fill(staffEmail);
  const entry = owner.getByRole('region', { name: 'Audit log' }).locator('tr', { hasText: 'order.stage.complete' });
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId('audit-actor')).toContainText(staffEmail);
  await expect(entry.getByTestId('audit-actor')).toContainText('Staff');
  await expect(entry).toContainText(orderId);

  // The owner removes them: the dialog says they are signed out at once.
  await owner.goto('/admin/staff');
  await row.getByRole('button', { name: `Remove ${staffEmail}` }).click();
  const dialog = owner.getByRole('dialog', { name: `Remove ${staffEmail}?` });
  await expect(dialog).toContainText('They will be signed out at once');
  await expectAccessible(owner);
  await shots(owner, 'owner-remove-staff');
  await dialog.getByRole('button', { name: 'Remove and sign out' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'was removed' })).toHaveText(`${staffEmail} was removed and signed out.`);
  await expect(row).toHaveCount(0);

  // Their back office, still open, is signed out: the next call is refused, the next screen is the sign-in.
  expect((await apiAs(staff, 'GET', 'admin/orders')).status).toBe(401);
  await staff.goto('/admin/orders');
  await expect(staff).toHaveURL(/\/login$/);

  await Promise.all([ownerCtx.close(), staffCtx.close()]);
});
