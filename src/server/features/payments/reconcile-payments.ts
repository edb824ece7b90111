import { and, eq, gt } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { paymentAttempts } from '../../db/schema/orders.ts';
import { moneyContext } from './context.ts';
import { settlePayment } from './settle-payment.ts';

const LOOK_BACK_MS = 7 * 24 * 3600 * 1000;

/**
 * Asks the provider about every provider order still open from the last week and settles those
 * with a captured payment — for browsers that closed before the callback and lost webhooks.
 * One failing call does not stop the others; the next run retries.
 */
export async function reconcilePayments(deps: AppDeps): Promise<{ checked: number; paid: number }> {
  const { provider } = moneyContext(deps);
  const open = await deps.db
    .select({ providerOrderId: paymentAttempts.providerOrderId })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.state, 'created'), eq(paymentAttempts.provider, provider.name), gt(paymentAttempts.createdAt, new Date(Date.now() - LOOK_BACK_MS))))
    .limit(200);
  let paid = 0;
  for (const { providerOrderId } of open) {
    try {
      const payments = await provider.fetchOrderPayments(providerOrderId);
      const captured = payments.find((p) => p.status === 'captured' && p.order_id === providerOrderId);
      if (!captured) continue;
      const r = await settlePayment(deps, { providerOrderId, paymentId: captured.id, amount: captured.amount, currency: captured.currency });
      if (r.outcome === 'paid') paid++;
    } catch (err) {
      deps.log.warn({ providerOrderId, err: (err as Error).message }, 'reconciliation call failed; will retry');
    }
  }
  return { checked: open.length, paid };
}
