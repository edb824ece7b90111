import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { login, readCode } from './helpers/auth.ts';
import { apiAs, payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL } from './ports.ts';
import { seedWorkspace } from './helpers/workspace.ts';

// Every route, signed out, as a customer and as the founder, with long data.
// At 390, 768, 1024, 1280 and 1440 px no page scrolls sideways and no text is cut off
// (clippedText); at 390×844 and 1440×900 a full-page
// screenshot goes to test-results/layout-sweep/ and every visible link and button is hit-testable:
// scrolled to the middle of the screen (or as far as the page scrolls), the point at its centre is the control itself (not a
// floating button, a glow or a neighbour lying on top). One browser context per role, one sign-in.

const WIDTHS = [390, 768, 1024, 1280, 1440] as const;
const SHOTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

const stamp = Date.now().toString(36);
// 52 characters, as in the issue: the local part alone is wider than a phone.
const LONG_EMAIL = `layout-sweep-customer-with-a-long-mailbox-${stamp}@example.com`.slice(-52).replace(/^[^a-z]+/, 'x');
const LONG_NAME = 'Maximilianaalexandrinakonstantinopouloupapadopoulou Vanderbiltsmythe';
const LONG_ADDRESS =
  'Flat-12B-Sunshine-Residency-Outer-Ring-Road-Marathahalli-Bengaluru-Karnataka-560037-India-Landmark-Opposite-The-Big-Lake';
const LONG_NOTE =
  'Kick-off call booked with the whole team; wireframes for the home, pricing and contact pages are attached to the shared drive.';

interface Found {
  overflow: { width: number; scrollWidth: number }[];
  covered: string[];
  clipped: string[];
}

/** Waits until the page has painted its data: no spinner, fonts loaded, two quiet frames. */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  // Every spinner must go: a page still loading after 15 s is a finding, not something to measure past.
  await expect(page.locator('[role="status"] svg.animate-spin, svg.animate-spin[aria-label]')).toHaveCount(0, { timeout: 15_000 });
  // The order tracker ticks its stages one by one (500 ms each): the page is measured once all are shown.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="tracker-count"]')].every((e) =>
        e.textContent?.startsWith(`${e.dataset.target}/`),
      ),
    undefined,
    { timeout: 15_000 },
  );
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  await slideInsDone(page);
}

/**
 * Waits until no finite animation or transition runs (a slide-in, a banner easing in): measured
 * mid-slide an element is off its place. Endless ones (spinners, pulses) are not waited for.
 */
async function slideInsDone(page: Page) {
  await page.waitForFunction(
    () =>
      document.getAnimations().every((a) => a.playState !== 'running' || !Number.isFinite(Number(a.effect?.getComputedTiming().endTime))),
    undefined,
    { timeout: 10_000, polling: 'raf' },
  );
}

/** Controls a user needs that do not answer a tap at their centre, each as "text (tag) ← what is on top". */
function uncoveredControls(page: Page, scope?: string): Promise<string[]> {
  return page.evaluate(async (scope) => {
    const bad: string[] = [];
    const describe = (el: Element) =>
      `${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)} ` +
      `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}>`;
    // An open layer (the phone menu, the chat panel) is checked alone: what lies under it is meant to be covered.
    const root = scope ? document.querySelector(scope) : document;
    if (!root) return [`${scope} is not open`];
    const controls = [...root.querySelectorAll('a[href], button, [role="button"], [role="tab"], input[type="submit"], summary, select')];
    for (const el of controls) {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || (el as HTMLButtonElement).disabled) continue;
      if (el.closest('[aria-hidden="true"], [inert]')) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      // Folded away (a closed panel clips it to nothing): not visible, so not needed yet.
      let clipped = false;
      for (let a = el.parentElement; a && !clipped; a = a.parentElement) {
        if (getComputedStyle(a).overflow === 'visible') continue;
        const r = el.getBoundingClientRect();
        const c = a.getBoundingClientRect();
        clipped = r.bottom <= c.top || r.top >= c.bottom || r.right <= c.left || r.left >= c.right;
      }
      if (clipped) continue;
      const box = el.getBoundingClientRect();
      // Screen-reader-only controls (skip links until focused) are 1 px; not for fingers.
      if (box.width <= 2 || box.height <= 2) continue;
      // As a person scrolls: the control brought to the middle of the screen, as far as the page goes.
      el.scrollIntoView({ block: 'center', inline: 'nearest' });
      const probe = () => {
        // A link that wraps over two lines is tapped on its words: the centre of its first line.
        const rects = el.getClientRects();
        const rect = rects.length > 1 ? rects[0]! : el.getBoundingClientRect();
        const x = rect.left + rect.width / 2;
        const y = rect.top + rect.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return `outside the viewport at (${Math.round(x)}, ${Math.round(y)})`;
        const hit = document.elementFromPoint(x, y);
        return hit && (hit === el || el.contains(hit)) ? null : hit ? describe(hit) : 'nothing';
      };
      // Bars that slide in or out on scroll get their transition's time before a second look.
      // A busy machine runs them slower: more looks after longer waits (a full e2e run once reported
      // the promo banner of `/` covered at 1440 px, clear when the spec ran alone).
      let problem = probe();
      for (const wait of [450, 1200, 2500]) {
        if (!problem) break;
        await new Promise((r) => setTimeout(r, wait));
        problem = probe();
      }
      if (problem) bad.push(`${describe(el)} ← ${problem}`);
    }
    // scrollIntoView also scrolls boxes with overflow hidden (a card around the lead form) that no
    // person can scroll: put them back, or the next width is measured with their content shifted.
    for (const box of document.querySelectorAll<HTMLElement>('*')) {
      if ((box.scrollTop || box.scrollLeft) && ['hidden', 'clip'].includes(getComputedStyle(box).overflowY)) box.scrollTo(0, 0);
    }
    window.scrollTo(0, 0);
    return bad;
  }, scope);
}

/**
 * Text a person cannot read in full where it stands ( admin tables at 390 px hid the
 * e-mail and "Mark handled" inside a sideways scroller while the page itself did not scroll):
 * - text whose box reaches past an ancestor that clips it sideways (overflow hidden, clip, auto or
 *   scroll — a scroller hides what lies past its edge just the same), or past the viewport;
 * - text cut at the top or bottom by an ancestor with overflow hidden/clip, when part of it shows
 *   (a folded panel that hides it entirely is closed, not clipped);
 * - an ellipsis (text-overflow) or a line clamp that hides text, unless the full text is offered by
 *   a `title` or an expansion control (aria-expanded) beside it.
 * Each as "text ← why". Screen-reader-only text (a 1 px clip) and aria-hidden decoration are skipped.
 */
function clippedText(page: Page, scope?: string): Promise<string[]> {
  return page.evaluate((scope) => {
    const bad: string[] = [];
    const root = scope ? document.querySelector(scope) : document.body;
    if (!root) return [`${scope} is not open`];
    const words = (t: string) => t.trim().replace(/\s+/g, ' ').slice(0, 50);
    const tag = (el: Element) =>
      `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}>`;
    const SLACK = 1.5;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const el = node.parentElement;
      if (!el || !text.trim() || seen.has(el)) continue;
      if (el.closest('[aria-hidden="true"], [inert], script, style, noscript, template, svg, option, select')) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      // Judged where a person reads it: the lines now wholly on the screen (the sweep scrolls).
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight);
      if (!rects.length) continue;
      const box = {
        left: Math.min(...rects.map((r) => r.left)),
        right: Math.max(...rects.map((r) => r.right)),
        top: Math.min(...rects.map((r) => r.top)),
        bottom: Math.max(...rects.map((r) => r.bottom)),
      };
      let why: string | null = null;
      let hiddenWhole = false;
      for (let a: Element | null = el; a && a !== document.documentElement && !why && !hiddenWhole; a = a.parentElement) {
        const style = getComputedStyle(a);
        const r = a.getBoundingClientRect();
        // The padding box: inside the borders, without a scrollbar.
        const inner = {
          left: r.left + a.clientLeft,
          right: r.left + a.clientLeft + a.clientWidth,
          top: r.top + a.clientTop,
          bottom: r.top + a.clientTop + a.clientHeight,
        };
        // An ellipsis or a line clamp is cut on purpose: fine when the whole text is offered.
        const cutOnPurpose = style.textOverflow === 'ellipsis' || (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '');
        const offered = !!a.closest('[title]')?.getAttribute('title') || !!a.parentElement?.querySelector('[aria-expanded]');
        if (style.overflowX !== 'visible') {
          if (a.clientWidth <= 2 && a.clientHeight <= 2)
            hiddenWhole = true; // sr-only
          else if (
            cutOnPurpose &&
            (box.left < inner.left - SLACK || box.right > inner.right + SLACK || box.bottom > inner.bottom + SLACK)
          ) {
            if (offered) hiddenWhole = true;
            else why = `ends in an ellipsis or clamp with no title or "more" ${tag(a)}`;
          } else if (box.right <= inner.left || box.left >= inner.right) {
            // Entirely beside a hiding box: a closed slide; beside a scroller: out of sight.
            if (style.overflowX === 'auto' || style.overflowX === 'scroll') why = `lies past the edge of the scroller ${tag(a)}`;
            else hiddenWhole = true;
          } else if (box.left < inner.left - SLACK || box.right > inner.right + SLACK)
            why = `cut at the side by ${tag(a)} (overflow-x: ${style.overflowX})`;
        }
        if (!why && !hiddenWhole && (style.overflowY === 'hidden' || style.overflowY === 'clip')) {
          if (box.bottom <= inner.top || box.top >= inner.bottom) hiddenWhole = true;
          else if (box.top < inner.top - SLACK || box.bottom > inner.bottom + SLACK) {
            const expandable = a.hasAttribute('title') || a.parentElement?.querySelector('[aria-expanded]');
            if (!expandable)
              why =
                `cut at the top or bottom by ${tag(a)} (text ${Math.round(box.top)}–${Math.round(box.bottom)} px, box ` +
                `${Math.round(inner.top)}–${Math.round(inner.bottom)} px)`;
          }
        }
        // A fixed layer is placed against the screen: the boxes around it in the markup do not clip it.
        if (style.position === 'fixed') break;
      }
      if (hiddenWhole) continue;
      // Wholly off the screen sideways is a panel slid away (a closed menu), not text cut in two.
      if (box.right <= 0 || box.left >= innerWidth) continue;
      if (!why && (box.right > innerWidth + SLACK || box.left < -SLACK)) why = 'runs past the edge of the screen';
      if (why) {
        seen.add(el);
        bad.push(`"${words(text)}" ${tag(el)} ${why}`);
      }
    }
    return bad;
  }, scope);
}

/**
 * clippedText screen by screen, as a person scrolls down the page: text that slides in when it comes
 * into view (the landing page's feature cards) is judged once it has arrived.
 */
async function clippedWhileScrolling(page: Page, scope?: string): Promise<string[]> {
  const found = new Set<string>();
  const { height, total } = await page.evaluate(() => ({ height: innerHeight, total: document.documentElement.scrollHeight }));
  for (let y = 0, step = 0; step < 40; y += Math.floor(height * 0.75), step++) {
    await page.evaluate(async (y) => {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }, y);
    // Finite animations and transitions started by the scroll run to their end (never the endless ones).
    await slideInsDone(page);
    for (const c of await clippedText(page, scope)) found.add(c);
    if (y + height >= total) break;
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return [...found];
}

/**
 * A route, or a route and what a person does there first (open a tab, the phone menu, the chat);
 * `scope` limits the tap test to the layer that was opened, `widths` the widths where it is open.
 */
type Entry = string | { path: string; name: string; then(page: Page): Promise<void>; scope?: string; widths?: readonly number[] };

async function sweep(page: Page, role: string, entry: Entry): Promise<Found> {
  const found: Found = { overflow: [], covered: [], clipped: [] };
  const path = typeof entry === 'string' ? entry : entry.path;
  const name = `${role}${path.replace(/[^a-zA-Z0-9]+/g, '-')}`.replace(/-$/, '') + (typeof entry === 'string' ? '' : `-${entry.name}`);
  await page.setViewportSize(SHOTS[0]);
  await page.goto(path);
  await settle(page);
  if (typeof entry !== 'string') {
    await entry.then(page);
    await settle(page);
  }
  const scope = typeof entry === 'string' ? undefined : entry.scope;
  const widths = typeof entry === 'string' ? WIDTHS : (entry.widths ?? WIDTHS);
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 1440 ? 900 : 844 });
    await settle(page);
    const { scrollWidth, viewport } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    if (scrollWidth > viewport) found.overflow.push({ width, scrollWidth });
    found.clipped.push(...(await clippedWhileScrolling(page, scope)).map((c) => `${width}px: ${c}`));
    if (width === 390 || width === 1440) {
      await page.screenshot({ path: join(test.info().project.outputDir, 'layout-sweep', `${name}-${width}.png`), fullPage: true });
      found.covered.push(...(await uncoveredControls(page, scope)).map((c) => `${width}px: ${c}`));
    }
  }
  return found;
}

async function sweepAll(page: Page, role: string, entries: Entry[]) {
  const problems: string[] = [];
  for (const entry of entries) {
    const f = await sweep(page, role, entry);
    const path = typeof entry === 'string' ? entry : `${entry.path} (${entry.name})`;
    for (const o of f.overflow) problems.push(`${path} at ${o.width}px is ${o.scrollWidth}px wide`);
    for (const c of f.covered) problems.push(`${path} ${c}`);
    for (const c of f.clipped) problems.push(`${path} clips text at ${c}`);
  }
  expect(problems, `${role}: pages that scroll sideways, controls that cannot be tapped, or text cut off`).toEqual([]);
}

const PUBLIC = [
  '/',
  '/about',
  '/pricing',
  '/login',
  '/signup',
  '/signup/emailverify',
  '/login/emailverify',
  '/contact',
  '/getAllRecommendations',
  '/googleLogin',
  '/microsoftLogin',
  '/referAndEarn',
  '/privacypolicy',
  '/faqs',
  '/termsandconditions',
  '/chat',
  '/no/such/page',
];

let customer: { ctx: BrowserContext; page: Page; orderId: string } | null = null;
let admin: { ctx: BrowserContext; page: Page } | null = null;

/** The long-data customer with one paid order whose tracker carries notes, and the founder. */
async function seed(browser: Browser) {
  if (customer && admin) return;
  const ctx = await browser.newContext({ viewport: SHOTS[0] });
  const page = await ctx.newPage();
  await login(page, LONG_EMAIL, { name: LONG_NAME, address: LONG_ADDRESS });
  const orderId = await payAdvanceInTestCheckout(page);
  const actx = await browser.newContext({ viewport: SHOTS[0] });
  const apage = await actx.newPage();
  await login(apage, ADMIN_EMAIL);
  // The order's workspace with long data, before "UI Started" locks the brief.
  await seedWorkspace(page, apage, orderId, { name: LONG_NAME, note: LONG_NOTE, address: LONG_ADDRESS });
  for (let stage = 2; stage <= 13; stage++) {
    const r = await apiAs(apage, 'POST', `tracker/order/${orderId}/complete-next-stage`, { note: `${LONG_NOTE} (${stage})` });
    expect(r.status).toBe(200);
  }
  // A long contact message for the back office's inbox.
  const contact = await apiAs(page, 'POST', 'contact/addContact', {
    name: LONG_NAME,
    email: LONG_EMAIL,
    phone_number: '9876543210',
    address: LONG_ADDRESS,
    message: `${LONG_NOTE} `.repeat(12),
  });
  expect(contact.status, JSON.stringify(contact.body)).toBe(200);
  // A lead with the long address ( its e-mail and "Mark handled" were cut off at 390 px).
  const lead = await apiAs(page, 'POST', 'alert/sendEmail', { email: LONG_EMAIL, page: '/' });
  expect(lead.status, JSON.stringify(lead.body)).toBe(200);
  const me = await apiAs(page, 'GET', 'user/getUserById');
  expect(me.body.user, 'the seeded customer has the long details').toMatchObject({
    name: LONG_NAME,
    email: LONG_EMAIL,
    address: LONG_ADDRESS,
  });
  customer = { ctx, page, orderId };
  admin = { ctx: actx, page: apage };
}

test.afterAll(async () => {
  await Promise.all([customer?.ctx.close(), admin?.ctx.close()]);
});

/** At a phone's width: the ☰ menu of the shared header, opened, its links tapped where they are. */
const phoneMenu = (path: string): Entry => ({
  path,
  name: 'menu',
  widths: [390],
  scope: '#mobile-menu',
  then: async (p) => {
    await p.getByRole('button', { name: 'Open menu' }).click();
    await expect(p.getByTestId('mobile-menu')).toBeVisible();
  },
});

/** The chat widget opened on a page: its own controls tapped, at a phone's width and a wide screen. */
const chatWidget = (path: string): Entry => ({
  path,
  name: 'chat',
  widths: [390, 1440],
  scope: '#chat-panel',
  then: async (p) => {
    await p.waitForLoadState('networkidle');
    await p.getByRole('button', { name: /Help & Support/ }).click();
    await expect(p.getByRole('region', { name: 'Help and support chat' })).toBeVisible();
  },
});

/** /signup/enterDetails as a new visitor reaches it: e-mail, code, then the form (kept for the tab). */
async function reachDetailsForm(page: Page) {
  const email = `layout-sweep-new-${stamp}@example.com`;
  await page.goto('/signup');
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/signup\/emailverify$/);
  await page.getByLabel('6-character code').fill(await readCode(email, 0));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/signup\/enterDetails$/);
  await expect(page.getByLabel('Address')).toBeVisible();
}

test('signed out: every public route fits and every control can be tapped', async ({ browser }) => {
  test.setTimeout(600_000); // a busy 2-core machine; about a minute each on a quiet one
  const ctx = await browser.newContext({ viewport: SHOTS[0] });
  const page = await ctx.newPage();
  await sweepAll(page, 'visitor', [...PUBLIC, phoneMenu('/about'), chatWidget('/faqs')]);
  // The details form is reached through a sign-up (its state survives a reload in the tab).
  await reachDetailsForm(page);
  await sweepAll(page, 'visitor', ['/signup/enterDetails']);
  await expect(page.getByLabel('Address'), 'the form itself was swept, not a redirect').toBeVisible();
  await ctx.close();
});

test('customer with long details: every page fits and every control can be tapped', async ({ browser }) => {
  test.setTimeout(600_000); // a busy 2-core machine; about a minute each on a quiet one
  await seed(browser);
  const { page, orderId } = customer!;
  await sweepAll(page, 'customer', [
    '/dashboard',
    { path: '/dashboard', name: 'orders', then: (p) => p.getByRole('tab', { name: 'My Orders' }).click() },
    `/status/${orderId}`,
    '/pay',
    `/pay?order=${orderId}`,
    '/referAndEarn',
    '/pricing',
    '/contact',
    '/chat',
    // The pages with the shared header, signed in (its links change), and its phone menu.
    '/',
    '/about',
    '/faqs',
    '/privacypolicy',
    '/termsandconditions',
    '/getAllRecommendations',
    phoneMenu('/about'),
    phoneMenu('/faqs'),
    chatWidget('/dashboard'),
    chatWidget(`/status/${orderId}`),
  ]);
});

test('founder: every back-office page fits and every control can be tapped', async ({ browser }) => {
  test.setTimeout(600_000); // a busy 2-core machine; about a minute each on a quiet one
  await seed(browser);
  const { page } = admin!;
  const { orderId } = customer!;
  const customers = await apiAs(page, 'GET', `admin/customers?q=${encodeURIComponent(LONG_EMAIL)}`);
  const customerId = (customers.body as { items: { id: string }[] }).items[0]?.id;
  expect(customerId).toBeTruthy();
  // A staff member with a long address, so /admin/staff is swept with a row.
  const staff = await apiAs(page, 'POST', 'admin/staff', { email: `layout-sweep-staff-with-a-long-mailbox-${stamp}@example.com` });
  expect(staff.status).toBe(201);
  await sweepAll(page, 'admin', [
    '/admin',
    '/admin/orders',
    `/admin/orders/${orderId}`,
    // Site care (decision 329): every watched site.
    '/admin/sites',
    '/admin/leads',
    { path: '/admin/leads', name: 'contacts', then: (p) => p.getByRole('button', { name: 'Contact messages' }).click() },
    '/admin/coupons',
    '/admin/cashback',
    '/admin/customers',
    `/admin/customers/${customerId}`,
    '/admin/audit',
    '/admin/drafts',
    '/admin/funnel',
    '/admin/tax',
    '/admin/payouts',
    '/admin/staff',
    '/adminChat',
    '/dashboard',
    // What the founder sees on the customer-facing order and payment pages.
    `/status/${orderId}`,
    '/pay',
    phoneMenu('/about'),
  ]);
});

test('the order workspace: every tab fits and every control can be tapped, customer and founder', async ({ browser }) => {
  test.setTimeout(600_000); // a busy 2-core machine
  await seed(browser);
  const { page, orderId } = customer!;
  const tabs = ['brief', 'files', 'reviews', 'messages'];
  await sweepAll(page, 'customer', [
    ...tabs.map((t) => `/status/${orderId}?tab=${t}`),
    {
      path: `/status/${orderId}?tab=reviews`,
      name: 'pin',
      then: (p) =>
        p
          .getByTestId('pin-surface')
          .first()
          .click({ position: { x: 40, y: 40 } }),
    },
  ]);
  await sweepAll(admin!.page, 'admin', [
    ...tabs.map((t) => `/admin/orders/${orderId}?tab=${t}`),
    {
      path: `/admin/orders/${orderId}?tab=reviews`,
      name: 'open-round',
      then: (p) => p.getByRole('button', { name: 'Open a review round' }).click(),
    },
  ]);
  // And no serious accessibility fault on any tab, with the long data.
  const faults: string[] = [];
  for (const [p, base] of [
    [page, `/status/${orderId}`],
    [admin!.page, `/admin/orders/${orderId}`],
  ] as const) {
    for (const t of tabs) {
      await p.goto(`${base}?tab=${t}`);
      await settle(p);
      const { violations } = await new AxeBuilder({ page: p }).analyze();
      faults.push(
        ...violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${base}?tab=${t} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      );
    }
  }
  expect(faults).toEqual([]);
});
