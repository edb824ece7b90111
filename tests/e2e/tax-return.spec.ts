import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildApp, type BuiltApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { completeNextStage } from '../../src/server/features/tracker/complete-next-stage.ts';
import { gstinCheckCharacter } from '../../src/domain/gst.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../fakes/razorpay.ts';
import { loginAs } from '../helpers/test-app.ts';
import { openCheckout } from '../helpers/test-checkout.ts';
import { login } from './helpers/auth.ts';
import { expectAccessible, expectNoSidewaysScroll, expectTappable } from './helpers/a11y.ts';
import { ADMIN_EMAIL, E2E } from './ports.ts';

// The founder's monthly return (docs/decisions/245-gstr1-monthly-return.md) on an instance with
// TAX_REGIME=gst and a live-mode Razorpay key (the local fake): test-mode payments are never in a
// return, so the buyers here pay through the fake's real protocol, then the founder reads /admin/tax,
// checks the tables and downloads b2b.csv. Screenshots at 390 and 1280 px go to test-results/tax-return/.

const rzpPort = E2E.razorpay + 5;
const appPort = E2E.razorpay + 6;
const appUrl = `http://127.0.0.1:${appPort}`;
const SHOTS = 'test-results/tax-return';
const KA_GSTIN = '29AAPFU0939F1Z' + gstinCheckCharacter('29AAPFU0939F1Z');
let rzp: FakeRazorpay;
let built: BuiltApp;

test.beforeAll(async () => {
  rzp = await startFakeRazorpay({ port: rzpPort, keyId: 'rzp_live_e2etax' });
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(appPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: appUrl,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-tax-')),
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtp}`,
    ADMIN_EMAILS: ADMIN_EMAIL,
    ADMIN_STEP_UP: 'off',
    TAX_REGIME: 'gst',
    SELLER_GSTIN: '29AAGCB7383J1Z4',
    GST_LUT_ARN: 'AD290326000123X',
    GST_LUT_VALID_UNTIL: '2099-03-31',
    ...rzp.env(),
    RAZORPAY_TIMEOUT_MS: '30000',
    PAYMENT_RECONCILE_SECONDS: '0',
    OTP_RESEND_SECONDS: '2',
    OTP_MAX_PER_EMAIL_HOUR: '200',
    OTP_MAX_PER_IP_HOUR: '5000',
    AUTH_MAX_PER_IP_MINUTE: '1000',
    ...(process.env.WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.WEB_DIST_DIR } : {}),
  });
  built = await buildApp(config);
  await built.app.listen({ port: appPort, host: '127.0.0.1' });

  // Two buyers pay through the provider's protocol: a Karnataka business both installments, a
  // Maharashtra consumer the advance only.
  const pay = async (who: { headers: Record<string, string> }, body: Record<string, unknown>) => {
    const verified = await built.app.inject({
      method: 'POST',
      url: '/api/v1/payment/verify-payment',
      headers: who.headers,
      payload: rzp.pay(await openCheckout(built, who, body)),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json().orderId as string;
  };
  const billing = async (who: { headers: Record<string, string> }, payload: object) =>
    expect(
      (await built.app.inject({ method: 'PUT', url: '/api/v1/invoices/billing-details', headers: who.headers, payload })).statusCode,
    ).toBe(200);
  const ka = await loginAs(built, 'tax-e2e-ka@example.com');
  await billing(ka, { billingName: 'Bengaluru Traders LLP', country: 'IN', stateCode: '29', gstin: KA_GSTIN });
  const order = await pay(ka, { kind: 'advance', currency: 'INR' });
  for (let i = 0; i < 12; i++) await completeNextStage(built.deps, order, {});
  await pay(ka, { kind: 'remaining', orderId: order });
  const mh = await loginAs(built, 'tax-e2e-mh@example.com');
  await billing(mh, { billingName: 'Asha Patil', country: 'IN', stateCode: '27' });
  await pay(mh, { kind: 'advance', currency: 'INR' });
});

test.afterAll(async () => {
  await built?.app.close();
  await rzp?.close();
});

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await expectNoSidewaysScroll(page);
    await expectTappable(page.getByRole('button', { name: /^Download / }));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the founder reads the month’s GSTR-1 tables on /admin/tax and downloads b2b.csv', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: appUrl });
  const page = await context.newPage();
  await login(page, ADMIN_EMAIL);
  await page.goto('/admin/tax');
  await expect(page.getByRole('heading', { name: 'Tax return' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('The tables add up to the month’s documents');
  const b2b = page.getByRole('region', { name: /^B2B/ });
  await expect(b2b).toContainText(KA_GSTIN);
  await expect(b2b).toContainText('Bengaluru Traders LLP');
  await expect(b2b).toContainText('29-Karnataka');
  await expect(page.getByRole('region', { name: /^Advances received/ })).toContainText('27-Maharashtra');
  await expect(page.getByRole('region', { name: /^Documents issued/ })).toContainText('Receipt Voucher');
  await expectAccessible(page);
  await shoot(page, 'admin-tax');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download b2b.csv' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^b2b-\d{4}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
  expect(csv[0]).toBe(
    'GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of ' +
      'Supply,Reverse Charge,Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable ' +
      'Value,Cess Amount',
  );
  expect(csv[1]).toMatch(
    new RegExp(
      `^${KA_GSTIN},Bengaluru Traders LLP,INV/\\d{4}-\\d{2}/0001,\\d{2}-[A-Z][a-z]{2}-\\d{4},\\d+\\.\\d{2},29-Karnataka,N,,Regular B2B,,18,\\d+\\.\\d{2},$`,
    ),
  );
  await context.close();
});

// Razorpay's payouts of the same payments (docs/decisions/323-razorpay-settlements.md): the fake
// settles them less its fee and the GST on it, with one payment the app never took; the founder
// reads them now on /admin/payouts and downloads the accountant's CSV.
test('the founder reconciles Razorpay’s payouts on /admin/payouts', async ({ browser }) => {
  test.setTimeout(180_000);
  const paid = await built.deps.database.query<{ id: string; amount: number }>(
    "select provider_payment_id as id, amount::float8 as amount from payment_attempts where state = 'paid' order by paid_at",
  );
  const line = (entityId: string, amount: number) => ({
    entityId,
    type: 'payment' as const,
    amount,
    fee: Math.round(amount * 0.0236),
    tax: Math.round(amount * 0.0036),
  });
  const payout = rzp.settle(new Date(), [...paid.map((p) => line(p.id, p.amount)), line('pay_e2eStranger01', 150_000)]);

  const context = await browser.newContext({ baseURL: appUrl });
  const page = await context.newPage();
  await login(page, ADMIN_EMAIL);
  await page.goto('/admin/payouts');
  await expect(page.getByRole('heading', { name: 'Payouts', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('status')).toHaveText(`Read from Razorpay: 1 payout, ${paid.length + 1} transactions.`);
  await expect(page.getByText(payout.utr).first()).toBeVisible();
  const lines = page.getByRole('region', { name: /^Transactions of the payout/ });
  await expect(lines.getByRole('link', { name: /^ORD/ })).toHaveCount(paid.length);
  await expect(lines).toContainText('Unknown here');
  await expect(page.getByRole('region', { name: 'Settled by Razorpay, unknown here' })).toContainText('pay_e2eStranger01');
  await expect(page.getByText('GST on fees — input tax credit').first()).toBeVisible();
  await expectAccessible(page);
  await expectTappable(page.getByRole('button', { name: 'Sync now' }));
  await shoot(page, 'admin-payouts');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^payouts-\d{4}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(csv[0]).toBe(
    'Payout,UTR,Settled on,Payout amount (INR),Type,Payment,Order,Amount (INR),Razorpay fee incl. GST (INR),GST on fee - input tax credit (INR),Known here',
  );
  expect(csv).toHaveLength(1 + paid.length + 1);
  await context.close();
});
