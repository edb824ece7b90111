import { expect, type Page } from '@playwright/test';

/** Calls the API as the user signed in in `page` (the token the app keeps in localStorage). */
export const apiAs = (page: Page, method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) =>
  page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(`/api/v1/${p}`, {
        method: m as string,
        headers: { authorization: `Bearer ${localStorage.getItem('token')}`, ...(b ? { 'content-type': 'application/json' } : {}) },
        body: b ? JSON.stringify(b) : undefined,
      });
      return { status: res.status, body: await res.json() };
    },
    [method, path, body] as const,
  );

/** From /pay, pays the advance in the built-in test checkout and returns the new order's id. */
export async function payAdvanceInTestCheckout(page: Page): Promise<string> {
  await page.goto('/pay');
  await expect(page.getByRole('heading', { name: 'Pay Advance' })).toBeVisible();
  // Issue 19 item 6: Pay waits for the terms to be accepted.
  await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();
  await page.getByRole('button', { name: /^Pay .*\d/ }).click();
  await expect(page.getByText('TEST MODE — no real money moves')).toBeVisible();
  await page.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(page.getByText('Payment received — thank you!')).toBeVisible();
  const href = await page.getByRole('link', { name: 'Follow your order' }).getAttribute('href');
  return decodeURIComponent(href!.split('/').pop()!);
}
