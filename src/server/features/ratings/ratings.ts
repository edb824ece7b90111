import { and, desc, eq, gte, sql } from 'drizzle-orm';
import {
  LOW_RATING,
  RATING_AVERAGE_DAYS,
  type AdminRatingsResponse,
  type OrderRatingBody,
  type Rating,
  type SupportRatingBody,
} from '../../../contract/ratings.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { ratings } from '../../db/schema/ratings.ts';
import { conflict } from '../../lib/app-error.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { notifyOwners } from '../mail/notify-owners.ts';
import { requestOf } from '../support/requests.ts';

// Ratings (docs/decisions/214-ratings.md): a resolved support request and a delivered order are
// rated once each; a score of 1 or 2 mails the founder at once; the founder's list carries the
// average of the last 90 days.

type Row = typeof ratings.$inferSelect;
const DAY_MS = 86_400_000;

const toRating = (r: Row, orderPublicId: string): Rating => ({
  id: r.id,
  kind: r.kind,
  orderId: orderPublicId,
  supportRequestId: r.supportRequestId,
  score: r.score,
  comment: r.comment,
  mayQuote: r.mayQuote,
  createdAt: r.createdAt.toISOString(),
});

/** The unique index keeps "once" across instances and double clicks alike: a second rating is a 409. */
async function insertOnce(values: typeof ratings.$inferInsert, db: Db | Tx, already: string): Promise<Row> {
  const [row] = await db.insert(ratings).values(values).onConflictDoNothing().returning();
  if (!row) throw conflict(already);
  return row;
}

async function alertIfLow(deps: AppDeps, tx: Tx, order: OrderRef, r: Row, what: string) {
  if (r.score > LOW_RATING) return;
  await notifyOwners(deps, tx, 'rating-low', {
    subject: `Low rating (${r.score}/5) on ${order.orderPublicId}`,
    heading: `A customer rated ${what} ${r.score} out of 5`,
    paragraphs: [r.comment ? `Their comment: ${r.comment}` : 'They left no comment.', 'It is worth a call or a message today.'],
    rows: [
      ['Order', order.orderPublicId],
      ['Customer', order.customerEmail],
    ],
    action: { label: 'Open the order', url: `${deps.config.publicUrl}/admin/orders/${encodeURIComponent(order.orderPublicId)}` },
  });
}

/** The customer rates a support request once it is resolved (or closed after that). */
export async function rateSupportRequest(
  deps: AppDeps,
  order: OrderRef,
  requestId: string,
  userId: string,
  body: SupportRatingBody,
): Promise<Rating> {
  const request = await requestOf(deps.db, order, requestId);
  if (request.state !== 'resolved' && request.state !== 'closed') throw conflict('A request can be rated once it is resolved.');
  // The founder's alert is written with the rating (docs/decisions/200-durable-reactions.md).
  const row = await deps.db.transaction(async (tx) => {
    const r = await insertOnce(
      { kind: 'support', orderId: order.orderId, supportRequestId: requestId, userId, score: body.score, comment: body.comment || null },
      tx,
      'This request is already rated. Thank you!',
    );
    await alertIfLow(deps, tx, order, r, `the support request "${request.title}"`);
    return r;
  });
  return toRating(row, order.orderPublicId);
}

/** The customer rates a delivered order once ("How did we do?"). */
export async function rateOrder(deps: AppDeps, order: OrderRef, userId: string, body: OrderRatingBody): Promise<Rating> {
  const row = await deps.db.transaction(async (tx) => {
    const r = await insertOnce(
      { kind: 'order', orderId: order.orderId, userId, score: body.score, comment: body.comment || null, mayQuote: body.mayQuote ?? false },
      tx,
      'This order is already rated. Thank you!',
    );
    await alertIfLow(deps, tx, order, r, 'their website project');
    return r;
  });
  return toRating(row, order.orderPublicId);
}

/** The ratings the customer gave on one order: the order's own, and each support request's score. */
export async function ratingsOfOrder(db: Db, order: OrderRef): Promise<Rating[]> {
  const rows = await db.select().from(ratings).where(eq(ratings.orderId, order.orderId)).orderBy(desc(ratings.createdAt));
  return rows.map((r) => toRating(r, order.orderPublicId));
}

/** The founder's list, newest first (at most `limit`), and the average score of the last 90 days. */
export async function adminRatings(db: Db, now = new Date(), limit = 200): Promise<Omit<AdminRatingsResponse, 'success'>> {
  const rows = await db
    .select({ r: ratings, orderPublicId: orders.publicId, email: users.email, name: users.name })
    .from(ratings)
    .innerJoin(orders, eq(orders.id, ratings.orderId))
    .leftJoin(users, eq(users.id, ratings.userId))
    .orderBy(desc(ratings.createdAt))
    .limit(limit);
  const since = new Date(now.getTime() - RATING_AVERAGE_DAYS * DAY_MS);
  const [avg] = await db
    .select({ average: sql<string | null>`avg(${ratings.score})`, n: sql<number>`count(*)::int` })
    .from(ratings)
    .where(and(gte(ratings.createdAt, since)));
  const average = avg?.average === null || avg?.average === undefined ? null : Math.round(Number(avg.average) * 10) / 10;
  return {
    ratings: rows.map(({ r, orderPublicId, email, name }) => ({ ...toRating(r, orderPublicId), customerEmail: email, customerName: name })),
    average90Days: average,
    count90Days: Number(avg?.n ?? 0),
  };
}
