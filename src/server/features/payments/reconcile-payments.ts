import { and, eq, gt } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { paymentAttempts } from '../../db/schema/orders.ts';
import type { ProviderPayment } from '../../integrations/payments/provider.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { settlePayment } from './settle-payment.ts';
import { reconcileMaintenanceClaims } from '../maintenance/reconcile-claims.ts';

const LOOK_BACK_MS = 7 * 24 * 3600 * 1000;

async function openAttempts(deps: AppDeps) {
  const { provider } = moneyContext(deps);
  return deps.db
    .select({ providerOrderId: paymentAttempts.providerOrderId })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.state, 'created'),
        eq(paymentAttempts.provider, provider.name),
        gt(paymentAttempts.createdAt, new Date(Date.now() - LOOK_BACK_MS)),
      ),
    )
    .limit(200);
}

/** The captured payment of one open provider order, or null; a failing call is logged and skipped. */
async function capturedPayment(deps: AppDeps, providerOrderId: string): Promise<ProviderPayment | null> {
  try {
    const payments = await moneyContext(deps).provider.fetchOrderPayments(providerOrderId);
    return payments.find((p) => p.status === 'captured' && p.order_id === providerOrderId) ?? null;
  } catch (err) {
    deps.log.warn({ providerOrderId, err: (err as Error).message }, 'reconciliation call failed; will retry');
    return null;
  }
}

/**
 * Asks the provider about every provider order still open from the last week and settles those
 * with a captured payment — for browsers that closed before the callback and lost webhooks.
 * One failing call does not stop the others; the next run retries.
 */
export async function reconcilePayments(deps: AppDeps): Promise<{ checked: number; paid: number }> {
  // The maintenance plan's provider calls left half-done by a crash (decision 230).
  await reconcileMaintenanceClaims(deps).catch((err: unknown) =>
    deps.log.warn({ err: (err as Error).message }, 'maintenance reconciliation failed; will retry'),
  );
  const open = await openAttempts(deps);
  let paid = 0;
  for (const { providerOrderId } of open) {
    const captured = await capturedPayment(deps, providerOrderId);
    if (!captured) continue;
    try {
      const r = await settlePayment(deps, {
        providerOrderId,
        paymentId: captured.id,
        amount: captured.amount,
        currency: captured.currency,
      });
      if (r.outcome === 'paid') paid++;
    } catch (err) {
      deps.log.warn({ providerOrderId, err: (err as Error).message }, 'reconciliation call failed; will retry');
    }
  }
  return { checked: open.length, paid };
}

/**
 * The same, asked by an admin (POST /api/v1/payment/reconcile): the provider is asked first (no
 * transaction is held across network calls), then every settlement and the admin's audit record
 * are written in one transaction — each settlement in its own savepoint, so one that fails is
 * skipped (and retried by the next run) without losing the others or the record.
 */
export async function reconcilePaymentsAsAdmin(deps: AppDeps, actorUserId: string): Promise<{ checked: number; paid: number }> {
  const open = await openAttempts(deps);
  const found: { providerOrderId: string; payment: ProviderPayment }[] = [];
  for (const { providerOrderId } of open) {
    const payment = await capturedPayment(deps, providerOrderId);
    if (payment) found.push({ providerOrderId, payment });
  }
  // After-commit reactions (receipts) wait for the commit, and those of a skipped savepoint are dropped.
  const settled = await deps.events.transaction(async (tx) => {
    const orders: string[] = [];
    for (const { providerOrderId, payment } of found) {
      try {
        const r = await deps.events.savepoint(tx, (sp) =>
          settlePayment(deps, { providerOrderId, paymentId: payment.id, amount: payment.amount, currency: payment.currency }, sp),
        );
        if (r.outcome === 'paid' && r.orderPublicId) orders.push(r.orderPublicId);
      } catch (err) {
        deps.log.warn({ providerOrderId, err: (err as Error).message }, 'reconciliation could not settle a payment; will retry');
      }
    }
    await recordAudit(tx, {
      actorUserId,
      action: 'payment.reconcile',
      entity: 'payment',
      entityId: null,
      before: null,
      after: { checked: open.length, paid: orders.length, orders },
    });
    return orders;
  });
  return { checked: open.length, paid: settled.length };
}
