import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { maintenanceCharges, maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import { orderMessageFiles, orderMessages } from '../../db/schema/order-messages.ts';
import { installments, orderStages, orders, paymentAttempts } from '../../db/schema/orders.ts';
import { orderReviewComments, orderReviewDecisions, orderReviews } from '../../db/schema/reviews.ts';
import { supportMessages, supportRequests } from '../../db/schema/support.ts';
import { orderFiles } from '../../db/schema/order-files.ts';
import { orderBriefs, orderTermsAcceptances } from '../../db/schema/order-briefs-and-terms.ts';
import { linesOf } from '../ledger/post.ts';
import { totalsOf } from '../ledger/lines.ts';
import { termsVersionPage, termsVersionPath } from '../../../contract/terms.ts';

// The orders part of "download all my data": each of the person's orders with what hangs off it —
// stages, installments and their payments, the brief, the terms accepted, messages, review rounds
// with their comments, support requests with their threads, the maintenance plan. Only what the
// person wrote or was shown: who at the agency did something is "agency", never a colleague's id,
// and internal notes of the agency stay out (they are not part of any customer-facing answer).

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Groups rows by a key, keeping their order. */
function groupBy<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
}

export type OrderFileRow = typeof orderFiles.$inferSelect;

export async function orderRecords(db: Db, userId: string, publicUrl: string) {
  const own = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt));
  const ids = own.map((o) => o.id);
  if (!ids.length) return { orders: [], files: [] as { orderPublicId: string; file: OrderFileRow }[] };

  const [stages, inst, briefs, terms, messages, messageFiles, reviews, requests, subs, files] = await Promise.all([
    db.select().from(orderStages).where(inArray(orderStages.orderId, ids)).orderBy(asc(orderStages.stage)),
    db.select().from(installments).where(inArray(installments.orderId, ids)).orderBy(asc(installments.createdAt)),
    db.select().from(orderBriefs).where(inArray(orderBriefs.orderId, ids)),
    db.select().from(orderTermsAcceptances).where(inArray(orderTermsAcceptances.orderId, ids)),
    db.select().from(orderMessages).where(inArray(orderMessages.orderId, ids)).orderBy(asc(orderMessages.seq)),
    db
      .select({ messageId: orderMessageFiles.messageId, name: orderFiles.name })
      .from(orderMessageFiles)
      .innerJoin(orderFiles, eq(orderFiles.id, orderMessageFiles.fileId))
      .where(inArray(orderFiles.orderId, ids))
      .orderBy(asc(orderMessageFiles.position)),
    db.select().from(orderReviews).where(inArray(orderReviews.orderId, ids)).orderBy(asc(orderReviews.createdAt)),
    db.select().from(supportRequests).where(inArray(supportRequests.orderId, ids)).orderBy(asc(supportRequests.createdAt)),
    db
      .select()
      .from(maintenanceSubscriptions)
      .where(inArray(maintenanceSubscriptions.orderId, ids))
      .orderBy(asc(maintenanceSubscriptions.createdAt)),
    db.select().from(orderFiles).where(inArray(orderFiles.orderId, ids)).orderBy(asc(orderFiles.createdAt), asc(orderFiles.id)),
  ]);
  const reviewIds = reviews.map((r) => r.id);
  const requestIds = requests.map((r) => r.id);
  const installmentIds = inst.map((i) => i.id);
  const subIds = subs.map((s) => s.id);
  const [attempts, comments, decisions, supportThread, charges] = await Promise.all([
    installmentIds.length
      ? db
          .select()
          .from(paymentAttempts)
          .where(inArray(paymentAttempts.installmentId, installmentIds))
          .orderBy(asc(paymentAttempts.createdAt))
      : [],
    reviewIds.length
      ? db
          .select()
          .from(orderReviewComments)
          .where(inArray(orderReviewComments.reviewId, reviewIds))
          .orderBy(asc(orderReviewComments.createdAt))
      : [],
    reviewIds.length ? db.select().from(orderReviewDecisions).where(inArray(orderReviewDecisions.reviewId, reviewIds)) : [],
    requestIds.length
      ? db.select().from(supportMessages).where(inArray(supportMessages.requestId, requestIds)).orderBy(asc(supportMessages.seq))
      : [],
    subIds.length
      ? db
          .select()
          .from(maintenanceCharges)
          .where(inArray(maintenanceCharges.subscriptionId, subIds))
          .orderBy(asc(maintenanceCharges.chargedAt))
      : [],
  ]);

  const by = {
    stages: groupBy(stages, (r) => r.orderId),
    inst: groupBy(inst, (r) => r.orderId),
    attempts: groupBy(attempts, (r) => r.installmentId),
    messages: groupBy(messages, (r) => r.orderId),
    messageFiles: groupBy(messageFiles, (r) => r.messageId),
    reviews: groupBy(reviews, (r) => r.orderId),
    comments: groupBy(comments, (r) => r.reviewId),
    requests: groupBy(requests, (r) => r.orderId),
    supportThread: groupBy(supportThread, (r) => r.requestId),
    subs: groupBy(subs, (r) => r.orderId),
    charges: groupBy(charges, (r) => r.subscriptionId),
    files: groupBy(files, (r) => r.orderId),
  };
  const briefOf = new Map(briefs.map((b) => [b.orderId, b]));
  const termsOf = new Map(terms.map((t) => [t.orderId, t]));
  const decisionOf = new Map(decisions.map((d) => [d.reviewId, d]));

  // Each order's account, as its statement shows it (docs/decisions/320-order-ledger.md).
  const accounts = new Map(await Promise.all(own.map(async (o) => [o.id, await linesOf(db as never, o.id)] as const)));
  const records = own.map((o) => ({
    id: o.publicId,
    plan: o.planId,
    state: o.state,
    currency: o.currency,
    listPrice: o.listPrice,
    price: o.price,
    discountPercent: o.discountPercent,
    discount: o.discount,
    fee: o.fee,
    total: totalsOf(accounts.get(o.id) ?? []).charged,
    statement: {
      lines: (accounts.get(o.id) ?? []).map((l) => ({
        at: iso(l.at),
        kind: l.kind,
        description: l.description,
        documentNumber: l.documentNumber,
        amount: l.amount,
      })),
      totals: totalsOf(accounts.get(o.id) ?? []),
    },
    couponCode: o.couponCode,
    deliveryUrl: o.deliveryUrl,
    uiApprovedAt: iso(o.uiApprovedAt),
    dueDate: o.dueDate,
    createdAt: iso(o.createdAt),
    stages: (by.stages.get(o.id) ?? []).map((s) => ({ stage: s.stage, completedAt: iso(s.completedAt), note: s.note })),
    installments: (by.inst.get(o.id) ?? []).map((i) => ({
      kind: i.kind,
      amount: i.amount,
      currency: i.currency,
      state: i.state,
      paidAt: iso(i.paidAt),
      payments: (by.attempts.get(i.id) ?? []).map((p) => ({
        provider: p.provider,
        testMode: p.testMode,
        amount: p.amount,
        currency: p.currency,
        state: p.state,
        paymentId: p.providerPaymentId,
        paidAt: iso(p.paidAt),
        refundState: p.refundState,
        refundedAt: iso(p.refundedAt),
        createdAt: iso(p.createdAt),
      })),
    })),
    brief: briefOf.has(o.id)
      ? {
          answers: briefOf.get(o.id)!.answers,
          submittedAt: iso(briefOf.get(o.id)!.submittedAt),
          updatedAt: iso(briefOf.get(o.id)!.updatedAt),
        }
      : null,
    // The version, and where its exact wording is read (docs/decisions/272-accepted-terms-readable.md).
    termsAccepted: termsOf.has(o.id)
      ? {
          version: termsOf.get(o.id)!.termsVersion,
          acceptedAt: iso(termsOf.get(o.id)!.acceptedAt),
          url: `${publicUrl}${termsVersionPage(termsOf.get(o.id)!.termsVersion)}`,
          apiUrl: `${publicUrl}${termsVersionPath(termsOf.get(o.id)!.termsVersion)}`,
        }
      : null,
    messages: (by.messages.get(o.id) ?? []).map((m) => ({
      from: m.sender === 'customer' ? 'you' : 'agency',
      text: m.text,
      files: (by.messageFiles.get(m.id) ?? []).map((f) => f.name),
      createdAt: iso(m.createdAt),
    })),
    reviews: (by.reviews.get(o.id) ?? []).map((r) => ({
      kind: r.kind,
      round: r.round,
      title: r.title,
      note: r.note,
      previewUrl: r.previewUrl,
      state: r.state,
      createdAt: iso(r.createdAt),
      decision: decisionOf.has(r.id)
        ? {
            decision: decisionOf.get(r.id)!.decision,
            comment: decisionOf.get(r.id)!.comment,
            decidedAt: iso(decisionOf.get(r.id)!.decidedAt),
          }
        : null,
      comments: (by.comments.get(r.id) ?? []).map((c) => ({
        from: c.author === 'customer' ? 'you' : 'agency',
        text: c.text,
        at: { x: c.x, y: c.y },
        resolvedAt: iso(c.resolvedAt),
        createdAt: iso(c.createdAt),
      })),
    })),
    supportRequests: (by.requests.get(o.id) ?? []).map((r) => ({
      title: r.title,
      description: r.description,
      category: r.category,
      state: r.state,
      createdAt: iso(r.createdAt),
      resolvedAt: iso(r.resolvedAt),
      closedAt: iso(r.closedAt),
      messages: (by.supportThread.get(r.id) ?? []).map((m) => ({
        from: m.sender === 'customer' ? 'you' : 'agency',
        text: m.text,
        createdAt: iso(m.createdAt),
      })),
    })),
    maintenancePlans: (by.subs.get(o.id) ?? []).map((s) => ({
      state: s.state,
      amount: s.amount,
      currency: s.currency,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      paidUntil: iso(s.paidUntil),
      createdAt: iso(s.createdAt),
      charges: (by.charges.get(s.id) ?? []).map((c) => ({
        amount: c.amount,
        currency: c.currency,
        periodStart: iso(c.periodStart),
        periodEnd: iso(c.periodEnd),
        chargedAt: iso(c.chargedAt),
      })),
    })),
  }));
  const fileList = own.flatMap((o) => (by.files.get(o.id) ?? []).map((file) => ({ orderPublicId: o.publicId, file })));
  return { orders: records, files: fileList };
}
