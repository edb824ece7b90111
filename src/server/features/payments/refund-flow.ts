import { and, asc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { AdminRefund } from '../../../contract/refunds.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { paymentRefunds } from '../../db/schema/ledger.ts';
import { users } from '../../db/schema/platform.ts';
import { ProviderUnavailableError } from '../../integrations/payments/provider.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import { issueRefundDocument } from '../invoices/issue-refund-document.ts';
import { mailCancelSettled } from './cancel-mail.ts';

// One refund = one row of payment_refunds (migration 1020), whatever asked for it: a cancel, a
// duplicate payment, a refund made in Razorpay's dashboard, one recorded by hand
// (docs/decisions/321-cancel-and-refund.md). A row is `pending` until the provider says the money
// moved (Razorpay's refund.processed webhook; at once in test mode), then `processed` — and only
// then, in that transaction, is its document issued and `refund.recorded` published — or `failed`
// (refund.failed, or the provider refusing the request), listed on the overview with a retry.

export type RefundRow = typeof paymentRefunds.$inferSelect;

/** A received payment of the order and what is left of it to refund. */
export interface RefundablePayment {
  providerPaymentId: string;
  provider: 'razorpay' | 'test';
  kind: 'advance' | 'remaining' | 'change';
  amount: number;
  /** What earlier refunds (pending or processed) already took back. */
  refunded: number;
  testMode: boolean;
  paidAt: Date;
}

/**
 * The order's received payments, oldest first (the advance, then changes and the remaining in the
 * order they were paid): the order a refund is split over (decision 321). Duplicate payments are not
 * among them: each is refunded whole on its own.
 */
export async function refundablePayments(tx: Tx, orderId: string): Promise<RefundablePayment[]> {
  const rows = await tx
    .select({
      providerPaymentId: paymentAttempts.providerPaymentId,
      provider: paymentAttempts.provider,
      kind: installments.kind,
      amount: paymentAttempts.amount,
      testMode: paymentAttempts.testMode,
      paidAt: paymentAttempts.paidAt,
      refunded: sql<number>`coalesce((select sum(r.amount) from payment_refunds r where r.provider_payment_id = 
          ${paymentAttempts.providerPaymentId} and r.status <> 'failed'), 0)::float8`,
    })
    .from(paymentAttempts)
    .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
    .where(and(eq(installments.orderId, orderId), eq(paymentAttempts.state, 'paid')))
    .orderBy(asc(paymentAttempts.paidAt), asc(paymentAttempts.id));
  return rows.map((r) => ({
    ...r,
    providerPaymentId: r.providerPaymentId ?? '',
    amount: Number(r.amount),
    refunded: Number(r.refunded),
    paidAt: r.paidAt ?? new Date(0),
  }));
}

/** Splits `amount` over the payments in their order, each taking what is left of it. */
export function splitRefund(payments: readonly RefundablePayment[], amount: number): { payment: RefundablePayment; amount: number }[] {
  const parts: { payment: RefundablePayment; amount: number }[] = [];
  let left = amount;
  for (const payment of payments) {
    if (left <= 0) break;
    const take = Math.min(left, payment.amount - payment.refunded);
    if (take > 0) parts.push({ payment, amount: take });
    left -= take;
  }
  return parts;
}

const orderOf = async (tx: Tx, orderId: string) => {
  // The order's row lock: a cancel, and every refund of the order changing state, hold it, so the
  // "all refunds processed → one mail" check sees the others' commits.
  const [o] = await tx
    .select({ id: orders.id, publicId: orders.publicId, currency: orders.currency, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId))
    .for('update', { of: orders })
    .limit(1);
  return o!;
};

const lockRefund = async (tx: Tx, id: string) =>
  (await tx.select().from(paymentRefunds).where(eq(paymentRefunds.id, id)).for('update').limit(1))[0];

/**
 * Records a refund as processed: its document (a refund voucher or credit note; none for a
 * duplicate payment, which was never documented), `refund.recorded`, and for a cancel's refund the
 * customer's one mail once all of the cancel's refunds are processed. Only from `pending` or
 * `failed` (a late refund.processed after a failure); a processed refund is left as it is.
 */
export async function processRefund(
  deps: AppDeps,
  tx: Tx,
  refundId: string,
  at: Date,
  providerRefundId?: string,
): Promise<'processed' | 'already'> {
  const [head] = await tx.select({ orderId: paymentRefunds.orderId }).from(paymentRefunds).where(eq(paymentRefunds.id, refundId)).limit(1);
  if (!head) return 'already';
  const order = await orderOf(tx, head.orderId);
  const row = (await lockRefund(tx, refundId))!;
  if (row.status === 'processed') return 'already';
  const reference = providerRefundId ?? row.providerRefundId ?? `refund-${row.id}`;
  const document =
    row.origin === 'duplicate'
      ? null
      : await issueRefundDocument(deps, tx, { providerPaymentId: row.providerPaymentId, amount: row.amount, refundedAt: at, reference });
  await tx
    .update(paymentRefunds)
    .set({
      status: 'processed',
      processedAt: at,
      providerRefundId: providerRefundId ?? row.providerRefundId,
      documentId: document?.id ?? null,
      failureReason: null,
    })
    .where(eq(paymentRefunds.id, row.id));
  // A duplicate refunded automatically (docs/decisions/332-change-quote-version.md) leaves "Refund needed" once the money moved.
  if (row.origin === 'duplicate') {
    await tx
      .update(paymentAttempts)
      .set({ refundState: 'refunded', refundReference: reference, refundedAt: at })
      .where(and(eq(paymentAttempts.providerPaymentId, row.providerPaymentId), eq(paymentAttempts.refundState, 'needed')));
  }
  await deps.events.publish(tx, 'refund.recorded', {
    orderId: order.id,
    orderPublicId: order.publicId,
    customerEmail: order.email,
    refundId: row.id,
    providerRefundId: providerRefundId ?? row.providerRefundId,
    providerPaymentId: row.providerPaymentId,
    origin: row.origin,
    amount: row.amount,
    currency: row.currency,
    testMode: row.testMode,
    document: document ? { id: document.id, number: document.number } : null,
    at,
  });
  if (row.origin === 'cancel') await mailIfCancelSettled(deps, tx, order);
  return 'processed';
}

/** The customer's one mail about a cancel with refunds: when the last of them is processed (decision 321). */
async function mailIfCancelSettled(deps: AppDeps, tx: Tx, order: { id: string; publicId: string; email: string }) {
  const rows = await tx
    .select({
      status: paymentRefunds.status,
      amount: paymentRefunds.amount,
      currency: paymentRefunds.currency,
      documentId: paymentRefunds.documentId,
      number: invoices.number,
      kind: invoices.docKind,
    })
    .from(paymentRefunds)
    .leftJoin(invoices, eq(invoices.id, paymentRefunds.documentId))
    .where(and(eq(paymentRefunds.orderId, order.id), eq(paymentRefunds.origin, 'cancel')));
  if (rows.some((r) => r.status !== 'processed')) return;
  const [o] = await tx.select({ reason: orders.cancelReason }).from(orders).where(eq(orders.id, order.id));
  await mailCancelSettled(deps, tx, order.email, {
    orderPublicId: order.publicId,
    reason: o?.reason ?? '',
    currency: rows[0]?.currency ?? '',
    refunded: rows.reduce((s, r) => s + Number(r.amount), 0),
    documents: rows
      .filter((r) => r.documentId && r.number)
      .map((r) => ({ id: r.documentId!, number: r.number!, kind: r.kind ?? 'refund_voucher' })),
  });
}

/** A refund the provider refused or reported failed: listed on the overview until retried. */
export async function failRefund(
  tx: Tx,
  refundId: string,
  reason: string,
  at: Date,
  providerRefundId?: string,
): Promise<'failed' | 'ignored'> {
  const row = await lockRefund(tx, refundId);
  if (!row || row.status !== 'pending') return 'ignored';
  await tx
    .update(paymentRefunds)
    .set({ status: 'failed', failedAt: at, failureReason: reason.slice(0, 500), ...(providerRefundId ? { providerRefundId } : {}) })
    .where(eq(paymentRefunds.id, row.id));
  return 'failed';
}

/**
 * Asks the provider to refund one pending row that has no provider refund yet (after the commit
 * that stored it, so a refund is never asked for a row that does not exist). The built-in test
 * checkout moves no money: its refund is processed at once. A Razorpay refund is processed when
 * its webhook says so, or at once for a test-mode payment (Razorpay's test keys move no money).
 * A provider that does not answer, or refuses, leaves the row failed with its reason.
 */
export async function askProvider(deps: AppDeps, refundId: string, orderPublicId: string): Promise<void> {
  const [row] = await deps.db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId)).limit(1);
  if (!row || row.status !== 'pending' || row.providerRefundId) return;
  const now = new Date();
  await deps.db
    .update(paymentRefunds)
    .set({ attempts: sql`${paymentRefunds.attempts} + 1` })
    .where(eq(paymentRefunds.id, row.id));
  if (row.provider === 'test') {
    await deps.events.transaction((tx) => processRefund(deps, tx, row.id, now, `test_rfnd_${row.id.replaceAll('-', '').slice(0, 14)}`));
    return;
  }
  const { provider } = moneyContext(deps);
  if (row.provider !== 'razorpay' || provider.name !== 'razorpay' || !provider.refundPayment) {
    await deps.events.transaction((tx) =>
      failRefund(tx, row.id, 'Razorpay is not configured on this server: refund it in the Razorpay dashboard.', now),
    );
    return;
  }
  let answer: Awaited<ReturnType<NonNullable<typeof provider.refundPayment>>>;
  try {
    answer = await provider.refundPayment({
      paymentId: row.providerPaymentId,
      amount: row.amount,
      speed: 'normal',
      // Razorpay's receipt is at most 40 characters; the row id (32 hex) names the refund.
      receipt: `rf_${row.id.replaceAll('-', '')}`,
      // The webhook finds the row by these notes when it comes before this answer is stored.
      notes: { orderId: orderPublicId, refundId: row.id },
    });
  } catch (err) {
    if (!(err instanceof ProviderUnavailableError)) throw err;
    deps.log.warn({ err: err.message, order: orderPublicId, refund: row.id }, 'refund through the provider failed');
    await deps.events.transaction((tx) => failRefund(tx, row.id, `Razorpay did not accept the refund: ${err.message}`, new Date()));
    return;
  }
  await deps.events.transaction(async (tx) => {
    // The order's lock first, as processRefund and the webhook take it (no lock cycle).
    await orderOf(tx, row.orderId);
    const locked = await lockRefund(tx, row.id);
    // The webhook came first and recorded it (found by its notes): nothing more to do.
    if (!locked || locked.status !== 'pending' || (locked.providerRefundId && locked.providerRefundId !== answer.id)) return;
    if (answer.status === 'failed')
      return void (await failRefund(tx, row.id, 'Razorpay reported the refund failed.', new Date(), answer.id));
    if (answer.status === 'processed' || row.testMode) return void (await processRefund(deps, tx, row.id, new Date(), answer.id));
    await tx.update(paymentRefunds).set({ providerRefundId: answer.id }).where(eq(paymentRefunds.id, row.id));
  });
}

/** Asks the provider again for a failed refund: a new provider refund, the same row (owner only). */
export async function retryRefund(deps: AppDeps, actorUserId: string, refundId: string): Promise<AdminRefund> {
  const orderPublicId = await deps.events.transaction(async (tx) => {
    const row = await lockRefund(tx, refundId);
    if (!row) return null;
    const stuck =
      row.status === 'pending' &&
      !row.providerRefundId &&
      row.provider !== 'manual' &&
      row.createdAt.getTime() < Date.now() - NEVER_ASKED_MS;
    if (row.status !== 'failed' && !stuck) return { conflict: row.status } as const;
    const [o] = await tx.select({ publicId: orders.publicId }).from(orders).where(eq(orders.id, row.orderId));
    await tx.update(paymentRefunds).set({ status: 'pending', providerRefundId: null, failedAt: null }).where(eq(paymentRefunds.id, row.id));
    await recordAudit(tx, {
      actorUserId,
      action: 'order.refund.retry',
      entity: 'order',
      entityId: o!.publicId,
      before: { refundId: row.id, status: 'failed', failureReason: row.failureReason },
      after: { status: 'pending' },
    });
    return { publicId: o!.publicId } as const;
  });
  if (!orderPublicId) throw notFound('No such refund.');
  if ('conflict' in orderPublicId) throw conflict(`This refund is ${orderPublicId.conflict}; only a failed refund is asked again.`);
  await askProvider(deps, refundId, orderPublicId.publicId);
  const [one] = await listRefunds(deps, { refundId });
  return one!;
}

/** The refunds of an order (or one refund), oldest first, as the back office lists them. */
export async function listRefunds(deps: Pick<AppDeps, 'db'>, where: { orderId: string } | { refundId: string }): Promise<AdminRefund[]> {
  const rows = await deps.db
    .select({ r: paymentRefunds, docNumber: invoices.number, docKind: invoices.docKind })
    .from(paymentRefunds)
    .leftJoin(invoices, eq(invoices.id, paymentRefunds.documentId))
    .where('orderId' in where ? eq(paymentRefunds.orderId, where.orderId) : eq(paymentRefunds.id, where.refundId))
    .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id));
  return rows.map(({ r, docNumber, docKind }) => ({
    id: r.id,
    paymentId: r.providerPaymentId,
    amount: Number(r.amount),
    currency: r.currency,
    status: r.status,
    origin: r.origin,
    reference: r.providerRefundId,
    testMode: r.testMode,
    createdAt: r.createdAt.toISOString(),
    processedAt: r.processedAt?.toISOString() ?? null,
    failedAt: r.failedAt?.toISOString() ?? null,
    failureReason: r.failureReason,
    document: r.documentId && docNumber ? { id: r.documentId, number: docNumber, kind: docKind ?? 'refund_voucher' } : null,
  }));
}

/** A refund stored but never asked of the provider after this long (the process stopped in between) is listed as failed. */
const NEVER_ASKED_MS = 10 * 60_000;
const neverAsked = (now: Date) =>
  and(
    eq(paymentRefunds.status, 'pending'),
    isNull(paymentRefunds.providerRefundId),
    ne(paymentRefunds.provider, 'manual'),
    lt(paymentRefunds.createdAt, new Date(now.getTime() - NEVER_ASKED_MS)),
  );

/** Failed refunds (and ones never asked), oldest first (the overview, with a retry each). */
export async function failedRefunds(deps: Pick<AppDeps, 'db'>) {
  const rows = await deps.db
    .select({ r: paymentRefunds, orderId: orders.publicId })
    .from(paymentRefunds)
    .innerJoin(orders, eq(orders.id, paymentRefunds.orderId))
    .where(or(eq(paymentRefunds.status, 'failed'), neverAsked(new Date())))
    .orderBy(asc(sql`coalesce(${paymentRefunds.failedAt}, ${paymentRefunds.createdAt})`))
    .limit(50);
  return rows.map(({ r, orderId }) => ({
    id: r.id,
    orderId,
    paymentId: r.providerPaymentId,
    amount: Number(r.amount),
    currency: r.currency,
    origin: r.origin,
    failedAt: (r.failedAt ?? r.createdAt).toISOString(),
    failureReason: r.failureReason ?? (r.status === 'pending' ? 'The refund was stored but never asked of the provider.' : null),
  }));
}

/** The row a provider refund belongs to: by its id, else by the notes the app sent with it (refundId). */
export async function refundRowOf(tx: Tx, providerRefundId: string, notedRefundId: string | undefined): Promise<RefundRow | undefined> {
  const [byId] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.providerRefundId, providerRefundId)).limit(1);
  if (byId) return byId;
  if (!notedRefundId || !/^[0-9a-f-]{36}$/i.test(notedRefundId)) return undefined;
  const [byNote] = await tx
    .select()
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.id, notedRefundId), isNull(paymentRefunds.providerRefundId), ne(paymentRefunds.status, 'processed')))
    .limit(1);
  return byNote;
}

/** The order and payment a provider payment id belongs to (a received payment or a duplicate). */
export async function paymentOf(tx: Tx, providerPaymentId: string) {
  const [row] = await tx
    .select({
      attemptId: paymentAttempts.id,
      state: paymentAttempts.state,
      refundState: paymentAttempts.refundState,
      provider: paymentAttempts.provider,
      testMode: paymentAttempts.testMode,
      currency: paymentAttempts.currency,
      orderId: installments.orderId,
    })
    .from(paymentAttempts)
    .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
    .where(and(eq(paymentAttempts.providerPaymentId, providerPaymentId), inArray(paymentAttempts.state, ['paid', 'duplicate'])))
    .limit(1);
  return row;
}
