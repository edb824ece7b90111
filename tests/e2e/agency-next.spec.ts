import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { login, signUp } from './helpers/auth.ts';
import { apiAs } from './helpers/orders.ts';
import { ADMIN_EMAIL, CONTROL_URL, E2E_SELLER, MAILBOX_URL } from './ports.ts';

// Invoices, the remaining-payment reminder, and the funnel, in Chromium.
// A customer arrives from a newsletter link, signs up, pays the advance and downloads the invoice;
// the founder completes stages up to 13 and the reminder reaches the SMTP fake; the customer pays
// the rest, the second invoice exists, no further reminder is sent; the funnel counts the order
// under "newsletter".

interface Mail {
  to: string[];
  subject: string;
  text: string;
}
const mailsTo = async (email: string): Promise<Mail[]> =>
  (await (await fetch(`${MAILBOX_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as Mail[];
/** The "remaining amount due" e-mail and the reminders after it (decision 095). */
const reminderMails = async (email: string) =>
  (await mailsTo(email)).filter((m) => /^Your website is ready to launch|^Reminder: /.test(m.subject));

/** The text of a downloaded PDF, read with pdftotext as a person would read the file. */
function pdfText(path: string): string {
  const out = spawnSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout;
}

/** Clicks "Download PDF" of the order page's invoice for one payment and returns its number and text. */
async function downloadInvoice(page: Page, payment: 'Advance payment' | 'Remaining payment'): Promise<{ number: string; text: string }> {
  const button = page
    .getByTestId('invoices')
    .getByRole('listitem')
    .filter({ hasText: payment })
    .getByRole('button', { name: /^Download invoice .+ \(PDF\)$/ });
  const label = (await button.getAttribute('aria-label'))!;
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await download.path();
  // The e2e stack pays in the built-in test checkout: its documents are the TEST series (decision 120).
  expect(download.suggestedFilename()).toMatch(/^TEST-.+\.pdf$/);
  expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
  return { number: /invoice (\S+)/.exec(label)![1]!, text: pdfText(path) };
}

const digits = (money: string) => money.replace(/[^\d.,]/g, '');

test('invoice PDFs, the remaining-payment reminder and the funnel source, end to end', async ({ browser }) => {
  test.setTimeout(240_000);
  const email = `agency-next-${Date.now()}@example.com`;
  // The customer's own browser (its user agent is part of the day's visitor hash).
  const ctx = await browser.newContext({
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36 AgencyNext/${Date.now()}`,
  });
  const page = await ctx.newPage();

  // 1. A visit from the newsletter, then sign-up: the first-touch source travels with the account.
  await page.goto('/?utm_source=newsletter&utm_medium=email&utm_campaign=launch');
  await expect(page.locator('h1').first()).toBeVisible();
  await signUp(page, email, { name: 'Nina Newsletter' });

  // 2. The advance, paid in the built-in test checkout.
  await page.goto('/pay');
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();
  await page.getByRole('button', { name: /^Pay .*\d/ }).click();
  await expect(page.getByText('TEST MODE — no real money moves')).toBeVisible();
  // What the checkout charges (the amount the invoice must show).
  const advanceShown = (await page.getByTestId('test-checkout-amount').innerText()).trim();
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(page.getByText('Payment received — thank you!')).toBeVisible();
  const href = await page.getByRole('link', { name: 'Follow your order' }).getAttribute('href');
  const orderId = decodeURIComponent(href!.split('/').pop()!);

  // 3. The invoice is on the order page; its PDF shows the number, the amounts and the seller.
  await page.goto(`/status/${encodeURIComponent(orderId)}`);
  await expect(page.getByTestId('invoices')).toBeVisible({ timeout: 15_000 });
  const first = await downloadInvoice(page, 'Advance payment');
  expect(first.number).toMatch(/^TEST\/\d{4}-\d{2}\/\d{4}$/);
  expect(first.text).toContain('TEST — NOT A TAX INVOICE');
  expect(first.text).toContain(first.number);
  expect(first.text).toContain(E2E_SELLER.legalName);
  expect(first.text).toContain(E2E_SELLER.taxId);
  expect(first.text).toContain('Nina Newsletter');
  expect(first.text).toContain(`order ${orderId}`);
  // The advance's document (a receipt when not registered under GST, decision 221): what was received and what remains.
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const advanceLine = /Amount of advance received\s+\D*?([\d,]+(?:\.\d+)?)/.exec(first.text);
  expect(advanceLine, first.text).not.toBeNull();
  expect(advanceLine![1]).toBe(digits(advanceShown));
  const remaining = /Remaining to be paid at completion\s+\D*?([\d,]+(?:\.\d+)?)/.exec(first.text)![1]!;
  const n = (s: string) => Number(s.replace(/,/g, ''));
  expect(n(remaining)).toBeGreaterThan(n(advanceLine![1]!));

  // 4. The founder completes stages 2–13 in the back office; the "remaining due" e-mail arrives.
  const adminCtx = await browser.newContext();
  const admin = await adminCtx.newPage();
  await login(admin, ADMIN_EMAIL);
  await admin.goto(`/admin/orders/${encodeURIComponent(orderId)}`);
  for (let stage = 2; stage <= 13; stage++) {
    await admin.locator('#stage-note').fill(`Stage ${stage} done`);
    await admin.getByRole('button', { name: /^Complete “/ }).click();
    // No brief was sent: "UI Started" asks first (docs/decisions/215-brief-lock.md).
    if (stage === 3) await admin.getByRole('button', { name: 'Start anyway' }).click();
    await expect(admin.getByRole('heading', { name: `Tracker — ${stage}/15 completed` })).toBeVisible();
  }
  await expect.poll(async () => (await reminderMails(email)).length, { timeout: 20_000 }).toBe(1);
  const [due] = await reminderMails(email);
  expect(due!.subject).toMatch(/^Your website is ready to launch — .+ remaining$/);
  expect(due!.text).toContain(`/status/${orderId}`);
  await admin.reload();
  await expect(admin.getByTestId('reminder-row').first()).toContainText('sent');

  // 5. The customer pays the rest from the order page; the second invoice is issued.
  await page.reload();
  await expect(page.getByTestId('tracker-count')).toHaveText('13/15 Completed', { timeout: 15_000 });
  await page.getByRole('button', { name: /^Pay remaining/ }).click();
  await expect(page.getByRole('heading', { name: 'Pay Remaining' })).toBeVisible();
  await page.getByRole('button', { name: /^Pay .*\d/ }).click();
  await expect(page.getByText('TEST MODE — no real money moves')).toBeVisible();
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));
  await expect(page.getByTestId('tracker-count')).toHaveText('14/15 Completed', { timeout: 15_000 });
  await expect(page.getByTestId('invoices').getByRole('listitem')).toHaveCount(2, { timeout: 15_000 });
  const second = await downloadInvoice(page, 'Remaining payment');
  expect(second.number).not.toBe(first.number);
  expect(second.text).toContain(E2E_SELLER.legalName);
  // One invoice for the whole order, less the advance; the balance paid now is what remained.
  expect(second.text).toContain(`Less: advance received, ${first.number}`);
  expect(second.text).toMatch(new RegExp(`Balance paid now\\s+\\D*?${esc(remaining)}`));

  // 6. No further reminder: a job pass "eight days later" (the test stack's control port) sends nothing.
  const later = new Date(Date.now() + 8 * 86_400_000).toISOString();
  const run = (await (await fetch(`${CONTROL_URL}/jobs/run?at=${encodeURIComponent(later)}`, { method: 'POST' })).json()) as {
    reminders: { sent: number };
  };
  expect(run.reminders.sent).toBe(0);
  expect(await reminderMails(email)).toHaveLength(1);
  const jobs = await apiAs(admin, 'GET', `admin/orders/${encodeURIComponent(orderId)}/reminders`);
  expect(jobs.body.reminders.map((r: { state: string; reason: string | null }) => `${r.state}:${r.reason}`)).toEqual([
    'sent:null',
    'cancelled:paid',
    'cancelled:paid',
    'cancelled:paid',
  ]);

  // 7. The funnel counts the visit, the sign-up and the paid advance under "newsletter".
  await admin.getByRole('link', { name: 'Funnel', exact: true }).click();
  await expect(admin.getByRole('heading', { name: 'Funnel', exact: true })).toBeVisible();
  const row = admin.getByTestId('funnel-source-row').filter({ has: admin.getByRole('cell', { name: 'newsletter', exact: true }) });
  await expect(row).toHaveCount(1);
  const cells = row.getByRole('cell');
  // Source, Visitors, Leads, Contact messages, Sign-ups, Advance paid, Delivered, Visitor → paid
  await expect(cells.nth(1)).toHaveText('1');
  await expect(cells.nth(4)).toHaveText('1');
  await expect(cells.nth(5)).toHaveText('1');
  await admin.getByRole('combobox', { name: 'Source' }).selectOption('newsletter');
  await expect(admin.getByRole('figure').filter({ hasText: 'Source: newsletter' })).toBeVisible();
  const [csv] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Download CSV' }).click()]);
  const csvText = readFileSync(await csv.path(), 'utf8');
  expect(csvText).toMatch(/^week_start,source,visitors,leads,contact_messages,signups,advance_paid,delivered\r\n/);
  expect(csvText).toMatch(/\d{4}-\d{2}-\d{2},newsletter,1,0,0,1,1,0\r\n/);

  await adminCtx.close();
  await ctx.close();
});
