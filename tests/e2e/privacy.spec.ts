import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { expectAccessible, expectNoSidewaysScroll, expectTappable } from './helpers/a11y.ts';
import { codeMailCount, login, mailsTo, readCode } from './helpers/auth.ts';
import { apiAs, deliverOrder, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL, APP_URL } from './ports.ts';

// In Chromium: a customer who paid for an order cannot delete the
// account while it is in progress; once it is delivered they correct the phone (the founder sees
// it), change the e-mail, sign out another device, download the ZIP (its JSON checked) and delete
// the account with a code from the mailbox. Then the founder's lists say "Deleted customer", the
// old addresses are gone and the invoices are still there. Screenshots at 390 and 1280 px.

/** Full-page screenshots at 390 and 1280 px, no sideways scroll at either (left at 1280). */
async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), `${name}-${width}.png`), fullPage: true });
  }
}

/** The dashboard's dialogs keep focus inside: Tab never reaches the page behind them. */
async function expectFocusStaysIn(page: Page, dialogName: string) {
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    const inside = await page.evaluate(() => {
      const el = document.activeElement;
      // Leaving the page for the browser's own controls shows as <body>: allowed, the page behind is not.
      return !el || el === document.body || el.closest('dialog[open]') !== null;
    });
    expect(inside, `Tab ${i + 1} left the ${dialogName} dialog`).toBe(true);
  }
}

test(
  'privacy self-service: refused while an order is in progress, then correct, change e-mail, sessions, ' +
    'export and delete; the founder sees "Deleted customer" and the invoices kept',
  async ({ page, browser }) => {
    test.setTimeout(300_000);
    const stamp = Date.now();
    const email = `privacy-${stamp}@example.com`;
    const newEmail = `privacy-new-${stamp}@example.com`;
    await login(page, email, { name: 'Priya Privacy' });
    const orderId = await payAdvanceInTestCheckout(page);

    // Paid and not delivered: the dialog explains what goes and what stays, and says UP FRONT that the
    // order blocks the deletion — no code is offered or sent (docs/decisions/275-account-deletion-up-front.md).
    await page.goto('/dashboard');
    await expect(page.getByTestId('detail-email')).toHaveText(email);
    let seen = await codeMailCount(email);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const del = page.getByRole('dialog', { name: 'Delete my account' });
    await expect(del).toBeVisible();
    await expect(del).toContainText('your invoices and payment records for 8 years');
    await expect(del).toContainText('the files you uploaded to your orders');
    await expect(del.getByTestId('delete-account-blockers')).toContainText('You have an order in progress');
    await expect(del.getByRole('button', { name: 'Send me a code' })).toHaveCount(0);
    await expect(del.getByRole('button', { name: 'Keep my account' })).toBeFocused();
    await expectAccessible(page);
    await expectFocusStaysIn(page, 'delete');
    await shots(page, 'delete-dialog-blocked');
    expect(await codeMailCount(email)).toBe(seen);
    await del.getByRole('button', { name: 'Keep my account' }).click();
    await expect(del).toBeHidden();
    await expect(page.getByRole('button', { name: 'Delete my account' })).toBeFocused();

    // The founder delivers (stages 2–13, the link with 13) and the customer pays the rest (14, 15).
    const adminCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await adminCtx.newPage();
    await login(admin, ADMIN_EMAIL);
    await deliverOrder(admin, page, orderId, 'https://priya.example.com');

    // Correct the phone: India's code from the picker, new digits. A server refusal shows under its field.
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Edit details' }).click();
    const form = page.getByRole('form', { name: 'Edit personal details' });
    await expect(form.getByLabel('Name', { exact: true })).toBeFocused();
    await form.getByRole('button', { name: /Country code/ }).click();
    await page.getByRole('combobox', { name: 'Search country name or code' }).fill('India');
    await page.getByRole('option', { name: /India/ }).first().click();
    await form.getByRole('textbox', { name: 'Phone', exact: true }).fill('9123456780');
    await page.route(
      '**/api/v1/user/profile',
      (route) =>
        route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            success: false,
            code: 'BAD_REQUEST',
            message: 'Invalid body. phone_number: This number is not accepted.',
          }),
        }),
      { times: 1 },
    );
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('textbox', { name: 'Phone', exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('alert')).toHaveText('This number is not accepted.');
    await expectAccessible(page);
    await shots(page, 'details-edit');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('details-saved')).toBeVisible();
    await expect(page.getByTestId('detail-phone')).toHaveText('+91 9123456780');
    await expect(page.getByRole('button', { name: 'Edit details' })).toBeFocused();
    // The founder's page of this customer shows the new number.
    await admin.goto('/admin/customers');
    await admin.getByLabel('Search by e-mail or name').fill(email);
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByRole('link', { name: 'Priya Privacy' }).click();
    await expect(admin.getByText('+91 9123456780')).toBeVisible();
    const customerPath = new URL(admin.url()).pathname;

    // Sessions: a second device is listed and signed out from here; its token stops working at once.
    const otherCtx = await browser.newContext();
    const other = await otherCtx.newPage();
    await login(other, email);
    await page.reload();
    const rows = page.getByTestId('session-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first().getByTestId('this-device')).toBeVisible();
    await expect(rows.nth(1).getByTestId('this-device')).toHaveCount(0);
    await expect(rows.nth(1)).toContainText('Last active');
    await rows
      .nth(1)
      .getByRole('button', { name: /^Sign out/ })
      .click();
    await expect(rows).toHaveCount(1);
    expect((await apiAs(other, 'GET', 'user/getUserById')).status).toBe(401);
    await otherCtx.close();

    // Change the e-mail: a code to the new address; the dashboard shows it at once. Escape closes first.
    await page.getByRole('button', { name: 'Change e-mail' }).click();
    const change = page.getByRole('dialog', { name: 'Change e-mail' });
    await expect(change.getByLabel('New e-mail address')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(change).toBeHidden();
    await expect(page.getByRole('button', { name: 'Change e-mail' })).toBeFocused();
    await page.getByRole('button', { name: 'Change e-mail' }).click();
    await change.getByLabel('New e-mail address').fill(newEmail);
    await change.getByRole('button', { name: 'Send code' }).click();
    await expect(change).toContainText(`We sent a code to ${newEmail}`);
    await expectAccessible(page);
    await shots(page, 'email-change-code');
    await change.getByLabel('Code from the e-mail').fill(await readCode(newEmail, 0));
    await change.getByRole('button', { name: 'Confirm new e-mail' }).click();
    await expect(change).toContainText(`you now sign in with ${newEmail}`);
    await change.getByRole('button', { name: 'Close' }).last().click();
    await expect(page.getByTestId('detail-email')).toHaveText(newEmail);

    // Download my data: the server's file name, data.json with the new phone, the order and the invoice PDFs.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^my-data-.+\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    const data = JSON.parse(strFromU8(files['data.json']!)) as {
      profile: { email: string; name: string; phone_code: string; phone_number: string };
      orders: { id: string }[];
      invoices: { number: string }[];
      invoiceFiles: Record<string, string>;
    };
    expect(data.profile).toMatchObject({ email: newEmail, name: 'Priya Privacy', phone_code: '91', phone_number: '9123456780' });
    expect(data.orders.map((o) => o.id)).toContain(orderId);
    expect(data.invoices.length).toBeGreaterThanOrEqual(2);
    for (const inv of data.invoices) {
      const path = data.invoiceFiles[inv.number]!;
      expect(path).toMatch(/^invoices\/.+\.pdf$/);
      expect(strFromU8(files[path]!.slice(0, 5))).toBe('%PDF-');
    }

    // Delete the account with a fresh code from the (new) mailbox: signed out, home page, a notice.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.getByRole('button', { name: 'Delete my account' }).click();
    seen = await codeMailCount(newEmail);
    await expect(del.getByRole('button', { name: 'Send me a code' })).toBeFocused();
    await shots(page, 'delete-dialog');
    await del.getByRole('button', { name: 'Send me a code' }).click();
    const deletionCode = await readCode(newEmail, seen);
    // The mail says what the code is for: deleting the account, not signing in.
    expect((await mailsTo(newEmail)).at(-1)!.text).toMatch(/You asked to delete your .* account/);
    await del.getByLabel('Code from the e-mail').fill(deletionCode);
    await del.getByRole('button', { name: 'Delete my account for good' }).click();
    await expect(page).toHaveURL(`${APP_URL}/`);
    await expect(page.getByTestId('account-deleted-notice')).toContainText('Your account is deleted.');
    await shots(page, 'home-after-deletion');
    // Still there after the sign-out settled (a signed-out dashboard would have sent to /login).
    await expect(page).toHaveURL(`${APP_URL}/`);
    await expect(page.getByTestId('account-deleted-notice')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const old = await fetch(`${APP_URL}/api/v1/user/getUserById`, { headers: { authorization: `Bearer ${token}` } });
    expect(old.status).toBe(401);

    // The founder: "Deleted customer" on the customer's page, the list and the order; no old address anywhere; invoices kept.
    await admin.goto(customerPath);
    await expect(admin.getByTestId('deleted-customer').first()).toBeVisible();
    await admin.goto('/admin/customers');
    await expect(admin.getByRole('region', { name: 'Customers' })).toBeVisible();
    await expect(admin.getByTestId('deleted-customer').first()).toBeVisible();
    for (const address of [email, newEmail]) {
      await expect(admin.locator('body')).not.toContainText(address);
      await admin.getByLabel('Search by e-mail or name').fill(address);
      await admin.getByRole('button', { name: 'Search' }).click();
      await expect(admin.getByRole('region', { name: 'Customers' }).getByRole('row')).toHaveCount(1); // the header row only
    }
    await admin.goto(`/admin/orders/${orderId}`);
    await expect(admin.getByTestId('deleted-customer').first()).toBeVisible();
    await expect(admin.locator('body')).not.toContainText(newEmail);
    await expect(admin.getByTestId('invoices').getByRole('listitem')).toHaveCount(2);
    await adminCtx.close();
  },
);

test('the account screens on a phone: nothing scrolls sideways, every button is a full-size target @mobile', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, `privacy-phone-${Date.now()}@example.com`, {
    name: 'Pia Phone',
    address: 'A very long address line without any spaces at all: Flat-12B-Sunrise-Apartments-MG-Road',
  });
  await page.goto('/dashboard');
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  for (const card of ['details-card', 'sessions-card', 'your-data-card']) await expectTappable(page.getByTestId(card).getByRole('button'));
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Edit details' }).click();
  await expectNoSidewaysScroll(page);
  await expectTappable(page.getByRole('form', { name: 'Edit personal details' }).getByRole('button'));
  await page.getByRole('button', { name: 'Cancel' }).click();

  for (const [open, name] of [
    ['Change e-mail', 'Change e-mail'],
    ['Delete my account', 'Delete my account'],
  ] as const) {
    await page.getByRole('button', { name: open }).click();
    const dialog = page.getByRole('dialog', { name });
    await expect(dialog).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectTappable(dialog.getByRole('button'));
    await expectAccessible(page);
    await page.screenshot({
      path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), `phone-${name.replace(/\W+/g, '-').toLowerCase()}.png`),
    });
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();
  }

  await page.goto('/privacypolicy');
  const how = page.getByRole('heading', { name: /How to see, correct, export or delete your data/ });
  await expect(how).toBeVisible();
  await expect(page.getByText(/keep invoices and payment records for 8 years/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'your dashboard' }).first()).toHaveAttribute('href', '/dashboard');
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), 'privacy-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), 'privacy-1280.png'), fullPage: true });
});
