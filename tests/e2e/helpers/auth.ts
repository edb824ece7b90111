import { expect, type Page } from '@playwright/test';
import { ADMIN_EMAILS, APP_URL, MAILBOX_URL } from '../ports.ts';

// Shared sign-in steps for every e2e spec: they click through the real screens and read the code
// from the local SMTP server, as a person reads their inbox.

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

export async function mailsTo(email: string): Promise<Mail[]> {
  const res = await fetch(`${MAILBOX_URL}/messages?to=${encodeURIComponent(email.toLowerCase())}`);
  return (await res.json()) as Mail[];
}

/** Waits for a code mail newer than the first `seen` mails to this address and returns its code. */
export async function readCode(email: string, seen: number, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const mails = (await mailsTo(email)).filter((m) => /\b\d{6}\b/.test(m.text));
    if (mails.length > seen) return /\b(\d{6})\b/.exec(mails[mails.length - 1]!.text)![1]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code mailed to ${email} within ${timeoutMs} ms`);
}

export async function codeMailCount(email: string): Promise<number> {
  return (await mailsTo(email)).filter((m) => /\b\d{6}\b/.test(m.text)).length;
}

export interface Details {
  name?: string;
  phone?: string;
  address?: string;
}

/** Fills /signup/enterDetails (name, phone with the default country code, address) and submits. */
export async function enterDetails(page: Page, details: Details = {}) {
  await expect(page).toHaveURL(/\/signup\/enterDetails$/);
  const name = page.getByLabel('Name', { exact: true });
  if (details.name || !(await name.inputValue())) await name.fill(details.name ?? 'Test Customer');
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill(details.phone ?? '9876543210');
  await page.getByLabel('Address').fill(details.address ?? '1 Test Street, Bangalore');
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Submits an e-mail on /login or /signup and the mailed code; retries once if a code was just sent. */
export async function emailAndCode(page: Page, path: '/login' | '/signup', email: string) {
  // Whoever was signed in in this page is forgotten first (/login would send them to the dashboard).
  if (page.url().startsWith('http')) await page.evaluate(() => localStorage.removeItem('token'));
  await page.goto(path);
  await page.getByLabel('Email Address').fill(email);
  for (let attempt = 0; ; attempt++) {
    const seen = await codeMailCount(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    const verify = page.waitForURL(/\/emailverify$/, { timeout: 5000 }).then(
      () => true,
      () => false,
    );
    if (await verify) {
      // Sign-up moves on even when no new code was sent (spec §4); the last code then still works.
      const code = await readCode(email, seen, 8000).catch(() => readCode(email, seen - 1, 1000));
      await page.getByLabel('6-character code').fill(code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await newCodeWhileRefused(page, email);
      return;
    }
    if (attempt >= 3) throw new Error(`could not request a code for ${email}`);
    // Asked of the instance this page is on (the step-up one has its own database).
    await resendWaitOver(email, new URL(page.url()).origin);
  }
}

/**
 * Specs run side by side and several sign in as the founder, on either instance, into one mailbox: a
 * code mailed to the same address at the same moment supersedes this one ("replaced by a newer
 * one"), or is read in its place (the other instance's: "Invalid OTP"). Then the helper does what a
 * person would: asks for a new code and enters the newest one (up to three times).
 */
async function newCodeWhileRefused(page: Page, email: string) {
  const refused = page.getByRole('alert').filter({ hasText: /Invalid OTP|replaced by a newer one/ });
  for (let attempt = 0; attempt < 3; attempt++) {
    const left = page
      .waitForURL((url) => !url.pathname.endsWith('/emailverify'), { timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    const outcome = await Promise.race([
      left,
      refused.waitFor({ timeout: 10_000 }).then(
        () => 'refused' as const,
        () => false,
      ),
    ]);
    if (outcome !== 'refused') return;
    const ask = page.getByRole('button', { name: 'Request a new code' });
    await ask.waitFor({ timeout: 15_000 });
    // The other sign-in's code started the server's wait too, which this page's countdown does not know.
    await resendWaitOver(email, new URL(page.url()).origin);
    const seen = await codeMailCount(email);
    await ask.click();
    await page.getByLabel('6-character code').fill(await readCode(email, seen, 8000));
    await page.getByRole('button', { name: 'Continue' }).click();
  }
}

/** Waits until the server's wait between two codes for this address is over (2 s in the e2e stack) on `appUrl`. */
export async function resendWaitOver(email: string, appUrl = APP_URL) {
  await expect
    .poll(
      async () => {
        const res = await fetch(`${appUrl}/api/v1/user/getOtpCreatedAt`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        });
        const { createdAt, resendAfterSeconds } = (await res.json()) as { createdAt: string | null; resendAfterSeconds: number };
        return !createdAt || Date.parse(createdAt) + resendAfterSeconds * 1000 <= Date.now();
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** Signs up a new customer by e-mail code and lands on the dashboard. */
export async function signUp(page: Page, email: string, details: Details = {}) {
  await emailAndCode(page, '/signup', email);
  await enterDetails(page, details);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Signs in by e-mail code and lands on the dashboard (an admin: the back office), on the instance
 * of the page's baseURL (the step-up instance: a context with `baseURL: PASSKEY_APP_URL`). An unknown address is signed up on the way
 * (spec §4); an address of ADMIN_EMAILS never sees the details form, even the first time, so `login(page, ADMIN_EMAIL)` always yields the admin straight away.
 */
export async function login(page: Page, email: string, details: Details = {}) {
  await emailAndCode(page, '/login', email);
  await page.waitForURL(/\/(dashboard|admin|signup\/enterDetails|pricing)$/);
  if (page.url().endsWith('/signup/enterDetails')) {
    expect(ADMIN_EMAILS.includes(email.toLowerCase()), `${email} is an admin and was asked for customer details`).toBe(false);
    await enterDetails(page, details);
  }
  // The founder lands in the back office (decision 125), a customer on the dashboard.
  await expect(page).toHaveURL(ADMIN_EMAILS.includes(email.toLowerCase()) ? /\/(admin|pricing)$/ : /\/(dashboard|pricing)$/);
}
