import { and, eq, ne, sql } from 'drizzle-orm';
import { BRIEF_LOCK_STAGE, BRIEF_QUESTIONS, checkBriefAnswers, type BriefAnswers } from '../../../domain/brief.ts';
import type { BriefPutBody, BriefResponse } from '../../../contract/brief.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orderStages, orders } from '../../db/schema/orders.ts';
import { orderBriefs } from '../../db/schema/order-briefs-and-terms.ts';
import { badRequest, conflict, notFound } from '../../lib/app-error.ts';

// The brief of an order (decision 145): a draft saved as the customer types,
// submitted once, editable until "UI Started" is completed, read by the founder.

const QUESTIONS: BriefResponse['questions'] = BRIEF_QUESTIONS.map((q) => ({
  id: q.id,
  label: q.label,
  kind: q.kind,
  required: q.required,
  ...(q.options ? { options: q.options.map((o) => ({ ...o })) } : {}),
  ...(q.followUpOf ? { followUpOf: { ...q.followUpOf } } : {}),
}));

export const LOCKED_MESSAGE = 'The brief can no longer be changed: work on the design has started. Please send changes as a message on the order.';

/**
 * The order behind a brief route: paid (a draft checkout is nobody's order yet) and, for a customer,
 * their own — anything else is "not found", so another customer's id tells nothing. `lock` takes
 * the order row for update, which serialises a save with the founder completing "UI Started".
 */
async function findOrder(db: Db | Tx, publicId: string, userId: string | undefined, lock = false) {
  const q = db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.publicId, publicId), ne(orders.state, 'awaiting_advance'), userId ? eq(orders.userId, userId) : undefined))
    .limit(1);
  const [order] = await (lock ? q.for('update') : q);
  if (!order) throw notFound('Order not found.');
  const [done] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orderStages)
    .where(and(eq(orderStages.orderId, order.id), eq(orderStages.stage, BRIEF_LOCK_STAGE)));
  // Only a submitted brief is locked by "UI Started": one never sent can still be sent
  // (docs/decisions/215-brief-lock.md).
  const [sent] = await db.select({ at: orderBriefs.submittedAt }).from(orderBriefs).where(eq(orderBriefs.orderId, order.id));
  return { id: order.id, locked: Number(done?.n ?? 0) > 0 && Boolean(sent?.at) };
}

const toResponse = (row: { answers: BriefAnswers; submittedAt: Date | null } | undefined, locked: boolean): BriefResponse => ({
  questions: QUESTIONS,
  brief: row ? { answers: row.answers, submittedAt: row.submittedAt ? row.submittedAt.toISOString() : null } : null,
  locked,
});

/**
 * The questions and the brief so far. Without `userId` (the founder) any paid order. One statement
 * (docs/decisions/285-signed-in-read-path.md): findOrder's rule — locked once "UI Started" is done and
 * the brief was submitted — read beside the brief.
 */
export async function getBrief(db: Db, publicId: string, userId?: string): Promise<BriefResponse> {
  const [found] = await db
    .select({
      answers: orderBriefs.answers,
      submittedAt: orderBriefs.submittedAt,
      briefId: orderBriefs.orderId,
      uiStarted: sql<boolean>`exists (select 1 from ${orderStages} s where s.order_id = ${orders.id} and s.stage = ${BRIEF_LOCK_STAGE})`,
    })
    .from(orders)
    .leftJoin(orderBriefs, eq(orderBriefs.orderId, orders.id))
    .where(and(eq(orders.publicId, publicId), ne(orders.state, 'awaiting_advance'), userId ? eq(orders.userId, userId) : undefined))
    .limit(1);
  if (!found) throw notFound('Order not found.');
  const row = found.briefId === null ? undefined : { answers: found.answers!, submittedAt: found.submittedAt };
  return toResponse(row, Boolean(found.uiStarted) && Boolean(found.submittedAt));
}

/**
 * Saves the customer's answers (they replace the previous ones: the form sends all it holds) as a
 * draft, or submits them with `submit: true`. Submitting again keeps the first submission time;
 * once submitted, every save must keep the required questions answered.
 */
export async function saveBrief(db: Db, userId: string, publicId: string, body: BriefPutBody, now = new Date()): Promise<BriefResponse> {
  return db.transaction(async (tx) => {
    const order = await findOrder(tx, publicId, userId, true);
    if (order.locked) throw conflict(LOCKED_MESSAGE);
    const [held] = await tx.select({ submittedAt: orderBriefs.submittedAt }).from(orderBriefs).where(eq(orderBriefs.orderId, order.id));
    // A submitted brief stays complete: later edits are held to the submission's rule.
    const checked = checkBriefAnswers(body.answers, body.submit === true || Boolean(held?.submittedAt));
    if (!checked.ok) throw badRequest(checked.message);
    const submittedAt = body.submit ? now : null;
    const [row] = await tx
      .insert(orderBriefs)
      .values({ orderId: order.id, answers: checked.answers, submittedAt, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: orderBriefs.orderId,
        set: { answers: checked.answers, updatedAt: now, submittedAt: sql`coalesce(${orderBriefs.submittedAt}, ${submittedAt})` },
      })
      .returning({ answers: orderBriefs.answers, submittedAt: orderBriefs.submittedAt });
    return toResponse(row, false);
  });
}
