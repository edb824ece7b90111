import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './helpers/a11y.ts';
import { ADMIN_EMAIL, APP_URL, FIRST_ADMIN_EMAIL } from './ports.ts';
import { codeMailCount, enterDetails, login, readCode, resendWaitOver } from './helpers/auth.ts';
import { payAdvanceInTestCheckout } from './helpers/orders.ts';

// Sign-up by e-mail code → details → dashboard → sign out → sign in again;
// Google and Microsoft sign-in against the local OpenID provider of tests/e2e/stack.ts.

const unique = (tag: string) => `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** The dev login and consent pages of the local OpenID provider (oidc-provider). */
async function signInAtProvider(page: Page, email: string) {
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: /sign-in/i }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a visitor signs up with an e-mail code, sees their details, signs out and signs in again @mobile', async ({ page }) => {
  const email = unique('visitor');
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'First, enter your email' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/signup\/emailverify$/);
  await expect(page.getByText(/You can request a new code in \d+ s/)).toBeVisible();
  const first = await readCode(email, 0);
  await expectAccessible(page);

  // The countdown (2 s in the e2e stack) ends with 'Request a new code', which looks like a link
  //; the old code then dies, and typing it says it was replaced.
  const resend = page.getByRole('button', { name: 'Request a new code' });
  await expect(resend).toHaveCSS('text-decoration-line', 'underline');
  await resend.click();
  await expect(page.getByText('A new code is on its way.')).toBeVisible();
  const code = await readCode(email, 1);
  const codeInput = page.getByLabel('6-character code');
  await codeInput.fill(first === code ? '000000' : first);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: 'Enter the code again' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(
    first === code
      ? 'Invalid OTP. Please try again.'
      : 'This code was replaced by a newer one. Please enter the code from the latest e-mail.',
  );
  // The stale "A new code is on its way." goes with the new error.
  await expect(page.getByText('A new code is on its way.')).toHaveCount(0);
  await codeInput.fill(code);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/signup\/enterDetails$/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expectAccessible(page);
  await page.getByLabel('Name', { exact: true }).fill('Asha Rao');
  await page.getByRole('button', { name: /Country code/ }).click();
  await page.getByRole('combobox').fill('India');
  await page.getByRole('option', { name: /India/ }).first().click();
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('123');
  await page.getByLabel('Address').fill('12 MG Road, Bangalore');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please enter a valid phone number with 5 to 11 digits.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('9876543210');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('tab', { name: 'Personal Details' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('detail-name')).toHaveText('Asha Rao');
  await expect(page.getByTestId('detail-email')).toHaveText(email);
  await expect(page.getByTestId('detail-phone')).toHaveText('+91 9876543210');
  await expect(page.getByTestId('detail-address')).toHaveText('12 MG Road, Bangalore');
  await expect(page.getByRole('link', { name: 'Order Now' })).toHaveAttribute('href', '/pricing');
  await expectAccessible(page);
  await page.getByRole('tab', { name: 'My Orders' }).click();
  await expect(page.getByRole('tabpanel')).toBeVisible();

  await page.getByRole('link', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: /^Sign in to / })).toBeVisible();
  await expectAccessible(page);

  const seen = await codeMailCount(email);
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/login\/emailverify$/);
  await page.getByLabel('6-character code').fill(await readCode(email, seen));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('detail-name')).toHaveText('Asha Rao');
});

test('sign-in from pricing returns to /pricing (router state isPricing)', async ({ page }) => {
  const email = unique('pricing');
  await page.goto('/login');
  // What the pricing page's 'Log In' button does: navigate to /login with state { isPricing: true }.
  await page.evaluate(() => {
    window.history.pushState({ usr: { isPricing: true }, key: 'e2e', idx: 1 }, '', '/login');
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  });
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('6-character code').fill(await readCode(email, 0));
  await page.getByRole('button', { name: 'Continue' }).click();
  await enterDetails(page);
  await expect(page).toHaveURL(/\/pricing$/);
});

test('Google sign-in: a first-time user completes details, then signs straight in', async ({ page }) => {
  const email = unique('google.user');
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Google' }).click();
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(/\/signup\/enterDetails$/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(/Google/);
  await enterDetails(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('detail-email')).toHaveText(email);

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Google' }).click();
  if (page.url().includes('/interaction/')) await signInAtProvider(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('detail-email')).toHaveText(email);
  await page.goto('/googleLogin');
  await page.getByRole('button', { name: 'Request Profile Information' }).click();
  await expect(page.getByTestId('social-profile')).toContainText(email);
  await expectAccessible(page);
});

test('Microsoft demo page: sign in, request the profile, sign out to / @mobile', async ({ page }) => {
  const email = unique('mona.lisa');
  await login(page, email, { name: 'Mona Lisa' });
  await page.goto('/microsoftLogin');
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Sign in with Microsoft' }).click();
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(/\/microsoftLogin$/);
  await page.getByRole('button', { name: 'Request Profile Information' }).click();
  const profile = page.getByTestId('social-profile');
  await expect(profile).toContainText('First Name');
  await expect(profile).toContainText('Mona');
  await expect(profile).toContainText('Lisa');
  await expect(profile).toContainText(email);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('the navigation switches to the logged-in set; signing in with ADMIN_EMAIL gives the admin role', async ({ page }) => {
  await login(page, unique('customer'));
  await page.goto('/about');
  const nav = page.getByTestId('site-header');
  await expect(nav.getByRole('link', { name: 'Dashboard' }).first()).toBeAttached();
  await expect(nav.getByRole('link', { name: 'Logout' }).first()).toBeAttached();
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);

  await login(page, ADMIN_EMAIL);
  const role = await page.evaluate(async () => {
    const res = await fetch('/api/v1/user/getUserById', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
    return ((await res.json()) as { user: { role: string } }).user.role;
  });
  expect(role).toBe('admin');
});

test("the founder's first sign-in goes straight in: no customer details form", async ({ page }) => {
  // FIRST_ADMIN_EMAIL is in ADMIN_EMAILS and signed in by no other spec: here it has no account yet.
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(FIRST_ADMIN_EMAIL);
  const seen = await codeMailCount(FIRST_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/login\/emailverify$/);
  const visited: string[] = [];
  page.on('framenavigated', (f) => f === page.mainFrame() && visited.push(new URL(f.url()).pathname));
  await page.getByLabel('6-character code').fill(await readCode(FIRST_ADMIN_EMAIL, seen));
  await page.getByRole('button', { name: 'Continue' }).click();
  // The founder lands in the back office, not on an empty customer dashboard.
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveCount(0);
  expect(visited.filter((p) => p.includes('enterDetails'))).toEqual([]);
  const role = await page.evaluate(async () => {
    const res = await fetch('/api/v1/user/getUserById', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
    return ((await res.json()) as { user: { role: string } }).user.role;
  });
  expect(role).toBe('admin');
  expect(
    visited.filter((p) => p === '/dashboard'),
    'never through the customer dashboard',
  ).toEqual([]);
  // The back office leads back to the site and signs out.
  await page.getByRole('link', { name: 'View site' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/admin/orders');
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
});

/** On /login: the e-mail, then the mailed code (waiting out the resend window of an earlier code). */
async function signInHere(page: Page, email: string) {
  await expect(page).toHaveURL(/\/login$/);
  await resendWaitOver(email);
  let seen = await codeMailCount(email);
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  // Another worker may have asked a code for the same address a moment ago: wait that out, ask again.
  const codeField = page.getByLabel('6-character code');
  const tooSoon = page.getByRole('alert').filter({ hasText: /^Please wait/ });
  await expect(codeField.or(tooSoon)).toBeVisible();
  if (await tooSoon.isVisible()) {
    await resendWaitOver(email);
    seen = await codeMailCount(email);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await codeField.fill(await readCode(email, seen));
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('signing in from a back-office deep link returns to it; a hostile return target is ignored', async ({ page }) => {
  await page.goto('/admin/coupons?from=deep-link');
  await signInHere(page, ADMIN_EMAIL);
  await expect(page).toHaveURL(/\/admin\/coupons\?from=deep-link$/);
  await expect(page.getByRole('heading', { name: 'Coupons and promotion' })).toBeVisible();

  // Whatever lands in the remembered target, sign-in never leaves the site.
  for (const hostile of ['//evil.example/admin', 'https://evil.example/admin', '/\\evil.example', '/admin/..//evil.example']) {
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/$/);
    await page.evaluate((target) => sessionStorage.setItem('auth.return-to', target), hostile);
    await page.goto('/login');
    await signInHere(page, ADMIN_EMAIL);
    await expect(page, hostile).toHaveURL(/\/admin$/);
    expect(new URL(page.url()).host, hostile).toBe(new URL(APP_URL).host);
  }
});

test('a second code asked for too soon says only how long to wait', async ({ page }) => {
  const email = unique('hasty');
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  // A code was just sent (another tab): the resend wait (2 s in the e2e stack) is running.
  const first = await fetch(`${APP_URL}/api/v1/auth/sendLoginOtp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(first.status).toBe(200);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toHaveText(/^Please wait \d+ seconds? before requesting a new code\.$/);
  await expect(page).toHaveURL(/\/login$/);
});

test('a sign-in started from a deep link returns to that page', async ({ page }) => {
  const email = unique('deeplink');
  await login(page, email, { name: 'Dee Link' });
  const orderId = await payAdvanceInTestCheckout(page);
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/$/);
  // The receipt's "View your order" link, opened signed out.
  await page.goto(`/status/${encodeURIComponent(orderId)}`);
  await expect(page).toHaveURL(/\/login$/);
  const seen = await codeMailCount(email);
  await page.getByLabel('Email Address').fill(email);
  await resendWaitOver(email); // the sign-up's code was just sent: a second one waits its turn
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('6-character code').fill(await readCode(email, seen));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/status/${orderId}$`));
  await expect(page.getByTestId('tracker-count')).toHaveText('1/15 Completed');
});
