import { and, eq, ne, sql } from 'drizzle-orm';
import { BRIEF_LOCK_STAGE, BRIEF_QUESTIONS, checkBriefAnswers, type BriefAnswers } from '../../../domain/brief.ts';
import type { BriefPatchBody, BriefPutBody, BriefResponse } from '../../../contract/brief.ts';
import type { Database, Db, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
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

export const LOCKED_MESSAGE =
  'The brief can no longer be changed: work on the design has started. Please send changes as a message on the order.';

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
export async function getBrief(database: Pick<Database, 'query'>, publicId: string, userId?: string): Promise<BriefResponse> {
  // Raw and named, not drizzle's builder: building the select cost a third of the read's CPU
  // (docs/decisions/291-signed-in-reads-one-statement.md). `$2` null is the founder: any paid order.
  const [found] = await database.query<{
    answers: BriefAnswers | null;
    submitted_at: Date | string | null;
    brief_id: string | null;
    ui_started: boolean;
  }>(BRIEF_SQL, [publicId, userId ?? null], 'order_brief');
  if (!found) throw notFound('Order not found.');
  const submittedAt =
    found.submitted_at === null ? null : found.submitted_at instanceof Date ? found.submitted_at : new Date(found.submitted_at);
  const row = found.brief_id === null ? undefined : { answers: found.answers!, submittedAt };
  return toResponse(row, Boolean(found.ui_started) && Boolean(submittedAt));
}

/**
 * The agency opened the brief: a submitted brief stops waiting for the agency in its inbox
 * (docs/decisions/330-agency-inbox-kinds.md). Only the first opening after submission is kept.
 */
export async function markBriefOpened(database: Pick<Database, 'query'>, publicId: string): Promise<void> {
  await database.query(
    `update order_briefs b set agency_read_at = now()
      from orders o
     where o.id = b.order_id and o.public_id = $1 and b.submitted_at is not null and b.agency_read_at is null`,
    [publicId],
  );
}

const BRIEF_SQL = `select b.answers, b.submitted_at, b.order_id as brief_id,
         exists (select 1 from order_stages s where s.order_id = o.id and s.stage = ${Number(BRIEF_LOCK_STAGE)}) as ui_started
    from orders o left join order_briefs b on b.order_id = o.id
   where o.public_id = $1 and o.state <> 'awaiting_advance' and ($2::uuid is null or o.user_id = $2::uuid)
   limit 1`;

/**
 * Saves the customer's answers (they replace the previous ones: the form sends all it holds) as a
 * draft, or submits them with `submit: true`. Submitting again keeps the first submission time;
 * once submitted, every save must keep the required questions answered.
 */
export function saveBrief(
  deps: Pick<AppDeps, 'events'>,
  userId: string,
  publicId: string,
  body: BriefPutBody,
  now = new Date(),
): Promise<BriefResponse> {
  return storeBrief(deps, userId, publicId, body, () => body.answers, now);
}

/**
 * Changes only the answers the body names (docs/decisions/270-brief-partial-saves.md): an empty one
 * is cleared, the others stay as stored. The merge reads the stored answers after the order row is
 * locked, so two saves of different answers from two tabs both survive, whichever comes first.
 */
export function patchBrief(
  deps: Pick<AppDeps, 'events'>,
  userId: string,
  publicId: string,
  body: BriefPatchBody,
  now = new Date(),
): Promise<BriefResponse> {
  return storeBrief(
    deps,
    userId,
    publicId,
    body,
    (stored) => {
      // Each named answer is checked (and normalised) as PUT would; an answer that normalises to nothing clears it.
      const changed = checkBriefAnswers(body.answers, false);
      if (!changed.ok) throw badRequest(changed.message);
      const merged: BriefAnswers = { ...stored };
      for (const id of Object.keys(body.answers)) {
        const v = changed.answers[id];
        if (v === undefined) delete merged[id];
        else merged[id] = v;
      }
      return merged;
    },
    now,
  );
}

async function storeBrief(
  deps: Pick<AppDeps, 'events'>,
  userId: string,
  publicId: string,
  body: { submit?: boolean },
  answersOf: (stored: BriefAnswers) => BriefAnswers,
  now: Date,
): Promise<BriefResponse> {
  return deps.events.transaction(async (tx) => {
    const order = await findOrder(tx, publicId, userId, true);
    if (order.locked) throw conflict(LOCKED_MESSAGE);
    const [held] = await tx
      .select({ submittedAt: orderBriefs.submittedAt, answers: orderBriefs.answers })
      .from(orderBriefs)
      .where(eq(orderBriefs.orderId, order.id));
    // A submitted brief stays complete: later edits are held to the submission's rule.
    const checked = checkBriefAnswers(answersOf(held?.answers ?? {}), body.submit === true || Boolean(held?.submittedAt));
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
    // The first submission is news for the founder (docs/decisions/277-founder-notices-brief-and-files.md).
    if (submittedAt && !held?.submittedAt)
      await deps.events.publish(tx, 'brief.submitted', { orderId: order.id, orderPublicId: publicId, at: now });
    return toResponse(row, false);
  });
}
