import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { installments, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { orderChanges } from '../../db/schema/changes.ts';
import { maintenanceCharges, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { ISSUING_KINDS } from '../invoices/issue-invoice.ts';
import { documentOf, postLines, syncOrderCharges } from './post.ts';
import { suppliedLines } from './lines.ts';

/**
 * Orders placed before the ledger existed get their account written from what they already hold
 * (docs/decisions/320-order-ledger.md): the order's quote, each paid installment with its
 * document, each paid change and maintenance month with its invoice, refund vouchers and credit
 * notes, duplicate payments and their refunds. Uses the same line rules as the live postings, keyed
 * by the same sources, so running it twice (two instances starting) writes each line once. Runs at
 * start for every placed order that has no line yet; a new order always has lines, so it is cheap.
 */
export async function backfillLedger(deps: AppDeps): Promise<number> {
  const pending = await deps.database.query<{ id: string }>(
    `select o.id from orders o
      where o.state <> 'awaiting_advance' and not exists (select 1 from order_ledger l where l.order_id = o.id)
      order by o.created_at`,
  );
  for (const { id } of pending) await deps.db.transaction((tx) => backfillOrder(deps, tx, id));
  if (pending.length > 0) deps.log.info({ orders: pending.length }, 'order accounts written for orders placed before the ledger');
  return pending.length;
}

async function backfillOrder(deps: AppDeps, tx: Tx, orderId: string) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) return;
  const docs = await tx
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, orderId))
    .orderBy(asc(invoices.issuedAt), asc(invoices.sequence));
  const issuing = (paymentId: string | null) =>
    docs.find((d) => d.providerPaymentId === paymentId && (ISSUING_KINDS as readonly string[]).includes(d.docKind));
  const paid = await tx
    .select()
    .from(installments)
    .where(and(eq(installments.orderId, orderId), eq(installments.state, 'paid')))
    .orderBy(asc(installments.paidAt));
  const advance = paid.find((i) => i.kind === 'advance');
  const orderDoc = advance && issuing(advance.providerPaymentId);
  await syncOrderCharges(
    deps,
    tx,
    orderId,
    advance?.paidAt ?? order.createdAt,
    orderDoc?.snapshot.description ?? `Custom website — order ${order.publicId}`,
  );

  for (const inst of paid) {
    const at = inst.paidAt ?? order.createdAt;
    const found = issuing(inst.providerPaymentId);
    const doc = found ? await documentOf(tx, found.id) : null;
    const posting = { orderId, at, currency: inst.currency, testMode: doc?.testMode ?? false, document: doc };
    let what = inst.kind === 'advance' ? 'Advance payment' : 'Remaining payment';
    if (inst.kind === 'change' && inst.changeId) {
      const [change] = await tx.select({ title: orderChanges.title }).from(orderChanges).where(eq(orderChanges.id, inst.changeId)).limit(1);
      const title = change?.title ?? 'change';
      await postLines(
        deps,
        tx,
        { ...posting, source: `change:${inst.changeId}` },
        suppliedLines(`Change: ${title}`, doc ?? { taxableValue: Number(inst.amount), taxes: [] }),
      );
      what = `Payment for the change "${title}"`;
    }
    await postLines(deps, tx, { ...posting, source: `payment:${inst.providerPaymentId ?? inst.id}`, providerRef: inst.providerPaymentId }, [
      { kind: 'payment', description: what, amount: -Number(inst.amount) },
    ]);
  }

  const charges = await tx
    .select({ charge: maintenanceCharges, testMode: maintenanceSubscriptions.testMode })
    .from(maintenanceCharges)
    .innerJoin(maintenanceSubscriptions, eq(maintenanceSubscriptions.id, maintenanceCharges.subscriptionId))
    .where(eq(maintenanceSubscriptions.orderId, orderId))
    .orderBy(asc(maintenanceCharges.chargedAt));
  for (const { charge, testMode } of charges) {
    const found = docs.find((d) => d.maintenanceChargeId === charge.id);
    const doc = found ? await documentOf(tx, found.id) : null;
    const posting = { orderId, at: charge.chargedAt, currency: charge.currency, testMode: doc?.testMode ?? testMode, document: doc };
    await postLines(
      deps,
      tx,
      { ...posting, source: `maintenance:${charge.id}` },
      suppliedLines(doc?.description ?? 'Website maintenance plan (monthly)', doc ?? { taxableValue: Number(charge.amount), taxes: [] }),
    );
    await postLines(deps, tx, { ...posting, source: `payment:${charge.providerPaymentId}`, providerRef: charge.providerPaymentId }, [
      { kind: 'payment', description: 'Maintenance plan payment', amount: -Number(charge.amount) },
    ]);
  }

  // Money returned with a document: the refund and the document's credit.
  for (const d of docs.filter((x) => x.docKind === 'refund_voucher' || x.docKind === 'credit_note')) {
    const doc = await documentOf(tx, d.id);
    await postLines(
      deps,
      tx,
      {
        orderId,
        source: `refund:${d.id}`,
        at: d.issuedAt,
        currency: d.currency,
        testMode: d.testMode,
        document: doc,
        providerRef: d.snapshot.paymentId,
      },
      [
        { kind: 'refund', description: 'Refund', amount: Number(d.amount) },
        {
          kind: 'credit_note',
          description:
            d.docKind === 'credit_note'
              ? 'Credit note: the refunded part is not supplied'
              : 'Refund voucher: the refunded advance is not supplied',
          amount: -Number(d.amount),
        },
      ],
    );
  }

  // A second payment of a paid installment (never documented), and its refund once made.
  const duplicates = await tx
    .select({ attempt: paymentAttempts })
    .from(paymentAttempts)
    .innerJoin(installments, eq(installments.id, paymentAttempts.installmentId))
    .where(and(eq(installments.orderId, orderId), inArray(paymentAttempts.state, ['duplicate'])));
  for (const { attempt: a } of duplicates) {
    const at = a.paidAt ?? a.createdAt;
    const base = { orderId, currency: a.currency, testMode: a.testMode };
    await postLines(deps, tx, { ...base, source: `payment:${a.providerPaymentId ?? a.id}`, at, providerRef: a.providerPaymentId }, [
      { kind: 'payment', description: 'Duplicate payment (to be refunded)', amount: -Number(a.amount) },
    ]);
    if (a.refundState === 'refunded') {
      await postLines(deps, tx, { ...base, source: `refund:duplicate:${a.id}`, at: a.refundedAt ?? at, providerRef: a.refundReference }, [
        { kind: 'refund', description: 'Refund of a duplicate payment', amount: Number(a.amount) },
      ]);
    }
  }
}
