import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_CURRENCY } from '../../src/domain/currencies.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { quote } from '../../src/domain/pricing.ts';
import { login } from './helpers/auth.ts';
import { ADMIN_EMAIL, E2E } from './ports.ts';

// Issue 6 "Done when": a visitor asks the AI, switches to the human tab, the signed-in admin
// answers from the console, the visitor sees the reply with the badge and keeps it after a reload.
const livePrice = formatMoney(quote(DEFAULT_CURRENCY).price, DEFAULT_CURRENCY);
const setLlmMode = (mode: string) =>
  fetch(`http://127.0.0.1:${E2E.llm}/__mode`, { method: 'POST', body: JSON.stringify({ mode }) });

async function openWidget(page: Page) {
  // Prerendered pages show the button before React has hydrated it.
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: /Help & Support/ }).click();
  const panel = page.getByRole('region', { name: 'Help and support chat' });
  await expect(panel).toBeVisible();
  return panel;
}

async function expectNoSeriousA11yIssues(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const { violations } = await builder.analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

test('a visitor asks the AI, then chats live with the signed-in admin; the reply survives a reload', async ({ browser }) => {
  test.setTimeout(90_000);
  const visitorContext = await browser.newContext();
  const adminContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const admin = await adminContext.newPage();
  try {
    await visitor.goto('/about');
    const panel = await openWidget(visitor);
    await expect(panel.getByRole('tab', { name: 'Ask AI' })).toHaveAttribute('aria-selected', 'true');
    expect((await panel.boundingBox())!.height).toBe(600);
    // The banner follows the featured promotion: the seed's FIRSTWEB25 ended in January 2025, so a
    // fresh install shows no banner rather than an expired offer (issue 12 §12).
    await expect(panel.getByTestId('chat-promo')).toHaveCount(0);
    // The disclaimer names the configured model (stack.ts: LLM_MODEL=e2e-model), not "GPT-4".
    await expect(panel.getByTestId('assistant-disclaimer')).toContainText('powered by e2e-model');
    await expectNoSeriousA11yIssues(visitor, '#chat-panel');

    // A quick question: loading indicator, then the answer with the live price.
    await panel.getByRole('button', { name: 'How much does a website cost?' }).click();
    await expect(panel.getByTestId('typing-indicator').or(panel.getByText(/Here is what our site says/))).toBeVisible();
    await expect(panel.getByTestId('ai-tab')).toContainText(livePrice, { timeout: 15_000 });
    await expect(panel.getByRole('button', { name: 'Can I customise my website?' })).toHaveCount(0);

    // The admin signs in through the real screens and opens the console.
    await login(admin, ADMIN_EMAIL);
    await admin.goto('/adminChat');
    await expect(admin.getByRole('heading', { name: 'Chat console' })).toBeVisible();
    await expect(admin.getByRole('status').filter({ hasText: /active chat/ })).toBeVisible();
    const before = await admin.getByTestId('admin-chat-item').count();

    await panel.getByRole('tab', { name: /Chat with our team|is online/ }).click();
    await expect(admin.getByTestId('admin-chat-item')).toHaveCount(before + 1);
    await expect(panel.getByTestId('offline-notice')).toHaveCount(0);
    const human = panel.getByTestId('human-tab');
    await human.getByRole('textbox', { name: /Your message/ }).fill('Hi! Can you build my <b>bakery</b> site?');
    await human.getByRole('button', { name: 'Send' }).click();
    await expect(human.getByText('Hi! Can you build my <b>bakery</b> site?')).toBeVisible();
    await expect(human.getByTestId('typing-indicator')).toBeVisible();

    const item = admin.getByTestId('admin-chat-item').filter({ hasText: 'bakery' });
    await expect(item.getByTestId('admin-chat-unread')).toHaveText(/1/);
    await item.click();
    await expect(admin.getByRole('log').getByText('Hi! Can you build my <b>bakery</b> site?')).toBeVisible();
    await expectNoSeriousA11yIssues(admin);

    // The visitor closes the panel; the reply raises the badge.
    await panel.getByRole('button', { name: 'Close chat' }).click();
    await expect(panel).toBeHidden();
    await expect(admin.getByRole('button', { name: 'Send' })).toBeDisabled();
    await admin.getByRole('textbox', { name: 'Reply' }).fill('Yes, we can! Delivery takes about 30 days.');
    await admin.getByRole('button', { name: 'Send' }).click();
    await expect(admin.getByRole('log').getByText('Yes, we can!', { exact: false })).toBeVisible();
    await expect(visitor.getByTestId('chat-unread')).toHaveText(/^1/);
    await expect(visitor.getByTestId('chat-widget')).toHaveAttribute('data-chimes', '1');
    const reopened = await openWidget(visitor);
    await expect(reopened.getByRole('tab', { name: 'Ask AI' })).toHaveAttribute('aria-selected', 'true');
    await expect(reopened.getByTestId('human-tab-dot')).toBeVisible();
    await reopened.getByRole('tab', { name: /Chat with our team|is online/ }).click();
    await expect(visitor.getByTestId('human-tab').getByText('Yes, we can! Delivery takes about 30 days.')).toBeVisible();
    await expect(visitor.getByTestId('chat-unread')).toHaveCount(0);

    // After a reload the history comes back from the server.
    await visitor.reload();
    const again = await openWidget(visitor);
    await expect(again.getByTestId('ai-tab')).toContainText(livePrice);
    await again.getByRole('tab', { name: /Chat with our team|is online/ }).click();
    await expect(again.getByText('Hi! Can you build my <b>bakery</b> site?')).toBeVisible();
    await expect(again.getByText('Yes, we can! Delivery takes about 30 days.')).toBeVisible();
  } finally {
    await visitorContext.close();
    await adminContext.close();
  }
});

test('the AI tab shows the spec fallback when the LLM fails', async ({ page }) => {
  await setLlmMode('fail');
  try {
    await page.goto('/faqs');
    const panel = await openWidget(page);
    await panel.getByRole('textbox', { name: /question/ }).fill('Tell me about SEO');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByText('Sorry, something went wrong.')).toBeVisible({ timeout: 10_000 });
  } finally {
    await setLlmMode('grounded');
  }
});

test('with nobody in the console the human tab asks for an e-mail', async ({ page }) => {
  await page.goto('/termsandconditions');
  const panel = await openWidget(page);
  await panel.getByRole('button', { name: 'Talk to a person' }).click();
  const notice = panel.getByTestId('offline-notice');
  await expect(notice).toContainText('offline');
  await notice.getByRole('textbox').fill('visitor@example.com');
  await notice.getByRole('button', { name: 'Save' }).click();
  await expect(notice).toContainText('We will e-mail the reply to visitor@example.com');
});

test('the human tab label alternates every 15 s', async ({ page }) => {
  await page.clock.install();
  await page.goto('/about');
  const panel = await openWidget(page);
  const label = panel.getByTestId('human-tab-label');
  await expect(label).toHaveText('Chat with our team');
  await page.clock.runFor(15_600);
  await expect(label).not.toHaveText('Chat with our team');
  await page.clock.runFor(15_600);
  await expect(label).toHaveText('Chat with our team');
});

test('guest chat test page: send, close and start a new chat', async ({ page }) => {
  await page.goto('/chat');
  await expect(page.getByTestId('guest-chat-status')).toContainText('Connected');
  await page.getByRole('textbox', { name: 'Message' }).fill('Test message from the guest page');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('log').getByText('Test message from the guest page')).toBeVisible();
  await expectNoSeriousA11yIssues(page);
  await page.getByRole('button', { name: 'Close Chat' }).click();
  await expect(page.getByTestId('guest-chat-status')).toHaveText('Chat closed.');
  await expect(page.getByRole('log').getByText('Test message from the guest page')).toHaveCount(0);
  await page.getByRole('button', { name: 'Start New Chat' }).click();
  await expect(page.getByTestId('guest-chat-status')).toContainText('Connected');
});

test('the widget fits a phone and answers @mobile', async ({ page }) => {
  await page.goto('/about');
  const panel = await openWidget(page);
  const box = (await panel.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  await panel.getByRole('button', { name: 'What services do you offer?' }).click();
  await expect(panel.getByTestId('ai-tab')).toContainText('designs, develops and deploys', { timeout: 15_000 });
});

test('the chat code is not loaded before the widget is opened', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((u) => /chat-widget|chat-socket|socket\.io/.test(u))).toEqual([]);
  await openWidget(page);
  expect(scripts.some((u) => /chat-widget/.test(u))).toBe(true);
});
