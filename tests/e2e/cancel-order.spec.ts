import { expect, test } from '@playwright/test';
import { checkAtBothWidths } from './helpers/a11y.ts';
import { login } from './helpers/auth.ts';
import { payAdvanceInTestCheckout } from './helpers/orders.ts';
import { ADMIN_EMAIL } from './ports.ts';

// The owner's "Cancel order" panel (docs/decisions/321-cancel-and-refund.md) on the main stack's
// built-in test checkout, whose refunds are processed at once: the default refund is the whole
// advance before "UI Started", a confirmation, then the order is cancelled with its refund listed,
// and the customer's status page shows it cancelled with nothing to pay.

test('the owner cancels an order before "UI Started" and refunds the advance', async ({ browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const buyerCtx = await browser.newContext();
  const buyer = await buyerCtx.newPage();
  await login(buyer, `cancel-buyer-${stamp}@example.com`, { name: 'Cal Cancel' });
  const orderId = await payAdvanceInTestCheckout(buyer);

  const ownerCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await ownerCtx.newPage();
  await login(owner, ADMIN_EMAIL);
  await owner.goto(`/admin/orders/${orderId}`);
  const form = owner.getByTestId('cancel-form');
  await expect(form).toBeVisible();
  await expect(form).toContainText('the terms refund the whole advance');
  const amount = form.getByLabel(/^Refund/);
  await expect(amount).not.toHaveValue('0.00');
  await checkAtBothWidths(owner, test.info().outputPath(), 'cancel-panel');
  await owner.setViewportSize({ width: 390, height: 900 });
  await form.screenshot({ path: test.info().outputPath('cancel-form-390.png') });
  await owner.setViewportSize({ width: 1280, height: 900 });

  // A reason is needed; then the confirmation says what goes back.
  await form.getByRole('button', { name: 'Cancel order…' }).click();
  await expect(form.getByRole('alert')).toHaveText('Say why the order is cancelled.');
  await form.getByLabel('Reason').fill('The customer asked to stop before design.');
  await form.getByRole('button', { name: 'Cancel order…' }).click();
  const dialog = owner.getByTestId('cancel-dialog');
  await expect(dialog).toBeVisible();
  await checkAtBothWidths(owner, test.info().outputPath(), 'cancel-dialog');
  await owner.setViewportSize({ width: 390, height: 900 });
  await owner.screenshot({ path: test.info().outputPath('cancel-dialog-view-390.png') });
  await owner.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByRole('button', { name: /^Cancel and refund/ }).click();

  await expect(owner.getByRole('status').filter({ hasText: 'Order cancelled' })).toBeVisible();
  await expect(owner.getByTestId('order-cancelled')).toContainText('The customer asked to stop before design.');
  const refund = owner.getByTestId('refund-row');
  await expect(refund).toHaveCount(1);
  await expect(refund).toContainText('Refunded');
  await expect(refund).toContainText('Refund voucher');
  await expect(owner.getByTestId('cancel-form')).toHaveCount(0);
  await checkAtBothWidths(owner, test.info().outputPath(), 'cancelled-order');

  await buyer.goto(`/status/${orderId}`);
  await expect(buyer.getByTestId('order-cancelled')).toBeVisible();
  await expect(buyer.getByRole('button', { name: /^Pay remaining/ })).toHaveCount(0);
  await expect(buyer.getByTestId('remaining')).toContainText('Not due (cancelled)');
  await checkAtBothWidths(buyer, test.info().outputPath(), 'cancelled-status');
  await buyerCtx.close();
  await ownerCtx.close();
});
