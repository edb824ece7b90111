import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../fakes/razorpay.ts';
import { login } from './helpers/auth.ts';
import { E2E } from './ports.ts';

// The real-provider path in a browser: a second instance of the app configured with Razorpay keys,
// pointed at the local Razorpay fake for both the Orders API and checkout.js. The fake's checkout
// "pays" and hands back the signed fields; the app verifies them like a real payment.
const appPort = E2E.razorpay + 1;
const appUrl = `http://127.0.0.1:${appPort}`;
let rzp: FakeRazorpay;
let app: FastifyInstance;

test.beforeAll(async () => {
  rzp = await startFakeRazorpay({ port: E2E.razorpay });
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(appPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: appUrl,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-rzp-')),
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtp}`,
    ...rzp.env(),
    RAZORPAY_CHECKOUT_URL: `${rzp.url}/v1/checkout.js`,
    PAYMENT_RECONCILE_SECONDS: '0',
    OTP_RESEND_SECONDS: '2',
    OTP_MAX_PER_EMAIL_HOUR: '200',
    OTP_MAX_PER_IP_HOUR: '5000',
    AUTH_MAX_PER_IP_MINUTE: '1000',
    ...(process.env.WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.WEB_DIST_DIR } : {}),
  });
  ({ app } = await buildApp(config));
  await app.listen({ port: appPort, host: '127.0.0.1' });
});

test.afterAll(async () => {
  await app?.close();
  await rzp?.close();
});

test('with Razorpay keys the advance goes through Razorpay checkout and is verified by signature', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: appUrl });
  const page = await context.newPage();
  await login(page, `rzp-${Date.now()}@example.com`);
  await page.goto('/pay');
  await page.getByTestId('currency-select').selectOption('INR');
  await expect(page.getByTestId('amount-due')).toHaveText('₹15,588.00');
  await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();
  await page.getByRole('button', { name: 'Pay ₹15,588.00' }).click();
  await expect(page.getByText('Payment received — thank you!')).toBeVisible();
  // The provider order was created with the server's amount in paise and our receipt.
  const [order] = [...rzp.orders.values()];
  expect(order).toMatchObject({ amount: 1558800, currency: 'INR', status: 'paid', receipt: expect.stringMatching(/^ORD[A-Z2-9]{10}-A$/) });
  expect(rzp.requests.filter((r) => r.path === '/v1/orders').every((r) => r.authorized)).toBe(true);
  // Razorpay's own webhook for the same payment afterwards changes nothing.
  const p = rzp.paymentsOf(order!.id)[0]!;
  const hook = rzp.webhook('payment.captured', p);
  const res = await fetch(`${appUrl}/api/v1/payment/webhook`, { method: 'POST', headers: hook.headers, body: hook.body });
  expect(await res.json()).toEqual({ status: 'ignored' });
  await page.getByRole('link', { name: 'Follow your order' }).click();
  await expect(page.getByTestId('tracker-count')).toHaveText('1/15 Completed');
  await context.close();
});
