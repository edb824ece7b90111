import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildApp, type BuiltApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { gstinCheckCharacter } from '../../src/domain/gst.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../fakes/razorpay.ts';
import { loginAs } from '../helpers/test-app.ts';
import { openCheckout } from '../helpers/test-checkout.ts';
import { login } from './helpers/auth.ts';
import { expectAccessible, expectNoSidewaysScroll, expectTappable } from './helpers/a11y.ts';
import { ADMIN_EMAIL, E2E } from './ports.ts';

// The order account (docs/decisions/320-order-ledger.md) as a person sees it, on an instance with
// TAX_REGIME=gst and a live-mode Razorpay key (the local fake): a Karnataka business pays its advance,
// a change and an add-on; every screen's total is the statement's. Another order is cancelled by the
// owner with a partial refund through Razorpay, settled by the signed refund.processed webhook; the
// overview's net revenue is the payments less that refund. At 1280 and 390 px, with axe; screenshots
// go to test-results/order-account/.

const rzpPort = E2E.razorpay + 7;
const appPort = E2E.razorpay + 8;
const appUrl = `http://127.0.0.1:${appPort}`;
const SHOTS = 'test-results/order-account';
const KA_GSTIN = '29AAPFU0939F1Z' + gstinCheckCharacter('29AAPFU0939F1Z');
const KA_EMAIL = 'account-e2e-ka@example.com';
const inr = (minor: number) => formatMoney(minor, { symbol: '₹', minorDigits: 2 });
let rzp: FakeRazorpay;
let built: BuiltApp;
let kaOrder: string;
let mhOrder: string;
const MH_EMAIL = 'account-e2e-mh@example.com';

type Who = { headers: Record<string, string> };
const api = async (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
  const r = await built.app.inject({ method, url: `/api/v1/${url}`, headers: who.headers, ...(payload ? { payload } : {}) });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
  return r.json();
};

test.beforeAll(async () => {
  rzp = await startFakeRazorpay({ port: rzpPort, keyId: 'rzp_live_e2eaccount' });
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(appPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: appUrl,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-account-')),
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtp}`,
    ADMIN_EMAILS: ADMIN_EMAIL,
    ADMIN_STEP_UP: 'off',
    TAX_REGIME: 'gst',
    SELLER_GSTIN: '29AAGCB7383J1Z4',
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

  // The Karnataka business: the advance, a ₹8,000 change and the "Advanced SEO" add-on, each paid
  // through the provider's protocol with its GST.
  const ka = await loginAs(built, KA_EMAIL);
  const owner = await loginAs(built, ADMIN_EMAIL, 'admin');
  await api(ka, 'PUT', 'invoices/billing-details', {
    billingName: 'Bengaluru Traders LLP',
    country: 'IN',
    stateCode: '29',
    gstin: KA_GSTIN,
  });
  const pay = async (who: Who, body: Record<string, unknown>) =>
    (await api(who, 'POST', 'payment/verify-payment', rzp.pay(await openCheckout(built, who, body)))).orderId as string;
  kaOrder = await pay(ka, { kind: 'advance', currency: 'INR' });
  const change = (await api(ka, 'POST', `orders/${kaOrder}/changes`, { title: 'Add a blog', description: 'Three templates.' })).change.id;
  await api(owner, 'POST', `admin/orders/${kaOrder}/changes/${change}/quote`, { amount: 800_000, extraDays: 5 });
  await pay(ka, { kind: 'change', orderId: kaOrder, changeId: change, acceptTerms: true });
  const seo = (await api(ka, 'GET', 'addons?currency=INR')).addons.find((a: { name: string }) => a.name === 'Advanced SEO');
  const addon = (await api(ka, 'POST', `orders/${kaOrder}/changes`, { title: 'Advanced SEO', addonId: seo.id })).change.id;
  await pay(ka, { kind: 'change', orderId: kaOrder, changeId: addon, acceptTerms: true });
  // A Maharashtra consumer's advance: the order the owner cancels.
  const mh = await loginAs(built, MH_EMAIL);
  await api(mh, 'PUT', 'invoices/billing-details', { billingName: 'Asha Patil', country: 'IN', stateCode: '27' });
  mhOrder = await pay(mh, { kind: 'advance', currency: 'INR' });
});

test.afterAll(async () => {
  await built?.app.close();
  await rzp?.close();
});

async function shoot(page: Page, name: string, check: () => Promise<void>, pdfButton = true) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await check();
    await expectNoSidewaysScroll(page);
    if (pdfButton) await expectTappable(page.getByRole('button', { name: 'Download PDF' }).first());
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a Karnataka business with a change and an add-on: every screen shows the statement’s figures', async ({ browser }) => {
  test.setTimeout(240_000);
  const ka = await loginAs(built, KA_EMAIL);
  const statement = await api(ka, 'GET', `orders/${kaOrder}/statement`);
  // ₹91,973.10 for the order, ₹9,440 for the change and ₹19,959.70 for the add-on, GST included.
  expect(statement.totals.charged).toBe(9_197_310 + 944_000 + 1_995_970);
  expect(statement.totals.balanceDue).toBe(statement.totals.charged - statement.totals.paid);

  const context = await browser.newContext({ baseURL: appUrl });
  const page = await context.newPage();
  await login(page, KA_EMAIL);
  await page.goto(`/status/${kaOrder}?tab=payments`);
  await shoot(page, 'customer-payments', async () => {
    await expect(page.getByTestId('statement-charged')).toHaveText(inr(statement.totals.charged));
    await expect(page.getByTestId('statement-paid')).toHaveText(inr(statement.totals.paid));
    await expect(page.getByTestId('statement-balance')).toHaveText(inr(statement.totals.balanceDue));
    await expect(page.getByTestId('statement-lines').getByRole('row')).toHaveCount(statement.lines.length + 1);
  });
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).first().click()]);
  expect(pdf.suggestedFilename()).toBe(`statement-${kaOrder}.pdf`);

  // The progress tab's new total and My Orders say the same.
  await page.goto(`/status/${kaOrder}`);
  await expect(page.getByTestId('changes-new-total')).toContainText(inr(statement.totals.charged));
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: /My Orders/ }).click();
  await expect(page.getByText(inr(statement.totals.charged)).filter({ visible: true }).first()).toBeVisible();

  // The owner's order page reads the same statement.
  const owner = await browser.newContext({ baseURL: appUrl });
  const admin = await owner.newPage();
  await login(admin, ADMIN_EMAIL);
  await admin.goto(`/admin/orders/${kaOrder}?tab=payments`);
  await shoot(admin, 'admin-payments', async () => {
    await expect(admin.getByTestId('statement-charged')).toHaveText(inr(statement.totals.charged));
    await expect(admin.getByTestId('statement-balance')).toHaveText(inr(statement.totals.balanceDue));
  });
  await context.close();
  await owner.close();
});

test('the owner cancels another order with a partial refund through Razorpay; the overview nets it', async ({ browser }) => {
  test.setTimeout(240_000);
  const mh = await loginAs(built, MH_EMAIL);
  const owner = await loginAs(built, ADMIN_EMAIL, 'admin');
  const before = await api(mh, 'GET', `orders/${mhOrder}/statement`);
  const refundAmount = 500_000;

  const context = await browser.newContext({ baseURL: appUrl });
  const page = await context.newPage();
  await login(page, ADMIN_EMAIL);
  await page.goto(`/admin/orders/${mhOrder}`);
  const form = page.getByTestId('cancel-form');
  await form.getByLabel('Reason').fill('The customer found another agency.');
  await form.getByLabel(/^Refund/).fill('5000.00');
  await form.getByRole('button', { name: 'Cancel order…' }).click();
  await page
    .getByTestId('cancel-dialog')
    .getByRole('button', { name: /^Cancel and refund/ })
    .click();
  await expect(page.getByTestId('order-cancelled')).toContainText('The customer found another agency.');
  // Razorpay answered "pending"; its signed refund.processed webhook settles it.
  const refund = rzp.refunds.find((r) => r.amount === refundAmount)!;
  expect(refund.status).toBe('pending');
  const hook = rzp.processRefund(refund.id);
  const delivered = await built.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: hook.headers, payload: hook.body });
  expect(delivered.statusCode, delivered.body).toBe(200);

  const after = await api(mh, 'GET', `orders/${mhOrder}/statement`);
  expect(after.state).toBe('cancelled');
  expect(after.totals).toMatchObject({ charged: before.totals.charged, paid: before.totals.paid, refunded: refundAmount, balanceDue: 0 });
  await page.goto(`/admin/orders/${mhOrder}?tab=payments`);
  await shoot(page, 'cancelled-payments', async () => {
    await expect(page.getByTestId('statement-cancelled')).toBeVisible();
    await expect(page.getByTestId('statement-refunded')).toHaveText(inr(refundAmount));
    await expect(page.getByTestId('statement-balance')).toHaveText(inr(0));
  });

  // The overview's revenue is money kept: every payment of this instance less the refund.
  const paid = (
    await built.deps.database.query<{ paise: number }>(
      "select coalesce(sum(amount), 0)::float8 as paise from payment_attempts where state = 'paid'",
    )
  )[0]!.paise;
  const overview = await api(owner, 'GET', 'admin/overview');
  expect(overview.moneyMoved.perCurrency).toEqual([
    expect.objectContaining({ currency: 'INR', received: paid, refunded: refundAmount, net: paid - refundAmount }),
  ]);
  await page.goto('/admin');
  await shoot(
    page,
    'overview-revenue',
    async () => {
      await expect(page.getByTestId('net-INR')).toHaveText(`Net ${inr(paid - refundAmount)}`);
    },
    false,
  );
  await context.close();
});
