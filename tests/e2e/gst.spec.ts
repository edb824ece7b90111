import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { login } from './helpers/auth.ts';
import { expectAccessible, expectNoSidewaysScroll } from './helpers/a11y.ts';
import { apiAs } from './helpers/orders.ts';
import { E2E_GST_SELLER_GSTIN, PASSKEY_APP_URL } from './ports.ts';

// GST on /pay (docs/decisions/220-gst-tax-rules.md, 221-gst-documents.md), on the stack's instance
// with TAX_REGIME=gst: the billing details with the state picker and a GSTIN come before the quote,
// the quote shows CGST + SGST, and the advance's receipt voucher PDF carries them. Screenshots at
// 390 and 1280 px go to test-results/gst/.

const SHOTS = 'test-results/gst';
// A Karnataka GSTIN with its check character (29AAPFU0939F1Z + mod-36 check).
const BUYER_GSTIN = '29AAPFU0939F1ZR';

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a Karnataka business gives its state and GSTIN on /pay, sees CGST + SGST and gets a receipt voucher', async ({ browser }) => {
  test.setTimeout(180_000);
  const ctx = await browser.newContext({ baseURL: PASSKEY_APP_URL });
  const page = await ctx.newPage();
  await login(page, `gst-buyer-${Date.now()}@example.com`, { name: 'Gita Gupta' });
  await page.goto('/pay');
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  await expect(page.getByTestId('tax-note')).toHaveText('+ 18 % GST for buyers in India');
  await page.getByTestId('currency-select').selectOption('INR');

  // A wrong check character is refused with the field's name; the right GSTIN is saved.
  const billing = page.getByTestId('billing-details');
  await billing.getByLabel('Country').selectOption('IN');
  await billing.getByLabel('State or union territory').selectOption('29');
  await billing.getByLabel(/GSTIN/).fill('29AAPFU0939F1ZA');
  await billing.getByRole('button', { name: 'Save billing details' }).click();
  await expect(billing.getByRole('alert')).toContainText('gstin');
  await billing.getByLabel(/GSTIN/).fill(BUYER_GSTIN);
  await billing.getByLabel('Billing name').fill('Bengaluru Traders LLP');
  await billing.getByRole('button', { name: 'Save billing details' }).click();
  await expect(billing.getByRole('status')).toContainText('Saved');

  const quote = page.getByTestId('quote');
  await expect(quote).toContainText('Taxable value₹77,943.30');
  await expect(quote).toContainText('CGST @ 9 %₹7,014.90');
  await expect(quote).toContainText('SGST @ 9 %₹7,014.90');
  await expect(quote).toContainText('Place of supplyKarnataka (29)');
  await expect(page.getByTestId('amount-due')).toHaveText('₹18,394.00');
  await expectAccessible(page);
  await shoot(page, 'pay-gst');

  await page.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }).check();
  await page.getByRole('button', { name: 'Pay ₹18,394.00' }).click();
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(page.getByText('Payment received — thank you!')).toBeVisible();
  const orderId = new URL(page.url()).searchParams.get('paid')!;

  // The advance's document: a receipt voucher (TEST series: the stack pays in test mode) with the tax inside it.
  const docs = (await apiAs(page, 'GET', `invoices/order/${orderId}`)).body.invoices as { id: string; number: string; kind: string }[];
  expect(docs.map((d) => d.kind)).toEqual(['receipt_voucher']);
  const pdf = await page.request.get(`/api/v1/invoices/${docs[0]!.id}/pdf`, {
    headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` },
  });
  expect(pdf.status()).toBe(200);
  const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: await pdf.body() }).toString('utf8');
  for (const s of [
    'TEST — NOT A TAX INVOICE',
    'Receipt voucher of a test payment',
    `GSTIN: ${E2E_GST_SELLER_GSTIN}`,
    `GSTIN: ${BUYER_GSTIN}`,
    'Place of supply: Karnataka (29)',
    'Authorised signatory',
  ]) {
    expect(text).toContain(s);
  }
  expect(text).toMatch(/CGST @ 9 %\s+₹1,402\.93/);
  expect(text).toMatch(/SGST @ 9 %\s+₹1,402\.93/);
  expect(text).toMatch(/Amount of advance received\s+₹18,394\.00/);
  await ctx.close();
});
