import { and, eq, inArray, sql } from 'drizzle-orm';
import { INLINE_IMAGE_TYPES, type OrderFileType } from '../../../contract/order-files.ts';
import { reviewOrigin, type OpenReviewBody, type Review } from '../../../contract/reviews.ts';
import type { AppDeps } from '../../deps.ts';
import { orders } from '../../db/schema/orders.ts';
import { orderFiles } from '../../db/schema/order-files.ts';
import { orderReviewFiles, orderReviewOrigins, orderReviews } from '../../db/schema/reviews.ts';
import { badRequest, conflict } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { readReview } from './list-reviews.ts';

/** What a round can show: images the browser draws (SVG only through an <img>, never inline from us) and PDF pages. */
const REVIEWABLE: readonly OrderFileType[] = [...INLINE_IMAGE_TYPES, 'image/svg+xml', 'application/pdf'];

/**
 * The founder opens the next round of `kind` on files of this order (decision 150). Rounds are
 * numbered per order and kind under a lock on the order, so two openings never take one number;
 * while a round of the kind is open the next waits for the customer's decision (409). The files
 * are locked (share) until commit, so a delete running now waits and then finds them in use.
 */
export async function openReview(deps: AppDeps, order: OrderRef, actorUserId: string, body: OpenReviewBody): Promise<Review> {
  if (new Set(body.fileIds).size !== body.fileIds.length) throw badRequest('A file is listed twice in fileIds.');
  // A round of the live site alone needs a preview the site-review API may talk to (decision 240).
  const origin = body.previewUrl ? reviewOrigin(body.previewUrl) : null;
  if (body.fileIds.length === 0 && !origin) {
    throw badRequest(
      'A round without files reviews the live site: its preview link must be https (or http://localhost / 127.0.0.1 for development).',
    );
  }
  const reviewId = await deps.events.transaction(async (tx) => {
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, order.orderId)).for('update');
    const files = body.fileIds.length
      ? await tx
          .select({ id: orderFiles.id, name: orderFiles.name, contentType: orderFiles.contentType })
          .from(orderFiles)
          .where(and(eq(orderFiles.orderId, order.orderId), inArray(orderFiles.id, body.fileIds)))
          .for('share')
      : [];
    // Nothing is said about a file of another order beyond "not this order's" (it may not exist at all).
    const missing = body.fileIds.filter((id) => !files.some((f) => f.id === id));
    if (missing.length) throw badRequest(`Not a file of this order: ${missing.join(', ')}. Upload the design to the order's files first.`);
    const wrong = files.find((f) => !REVIEWABLE.includes(f.contentType as OrderFileType));
    if (wrong) throw badRequest(`"${wrong.name}" cannot be reviewed: a round shows images (PNG, JPEG, WebP, GIF, SVG) or PDF pages.`);

    const [open] = await tx
      .select({ round: orderReviews.round })
      .from(orderReviews)
      .where(and(eq(orderReviews.orderId, order.orderId), eq(orderReviews.kind, body.kind), eq(orderReviews.state, 'open')));
    if (open)
      throw conflict(
        `Round ${open.round} of the ${body.kind === 'ui' ? 'UI' : 'final'} review is still open: the customer decides it before the next round opens.`,
      );
    const [last] = await tx
      .select({ n: sql<number>`coalesce(max(${orderReviews.round}), 0)::int` })
      .from(orderReviews)
      .where(and(eq(orderReviews.orderId, order.orderId), eq(orderReviews.kind, body.kind)));
    const round = (last?.n ?? 0) + 1;
    const note = body.note || null;
    const previewUrl = body.previewUrl || null;
    const [row] = await tx
      .insert(orderReviews)
      .values({ orderId: order.orderId, kind: body.kind, round, title: body.title, note, previewUrl, openedByUserId: actorUserId })
      .returning();
    if (body.fileIds.length)
      await tx.insert(orderReviewFiles).values(body.fileIds.map((fileId, position) => ({ reviewId: row!.id, fileId, position })));
    // The order keeps the origins of its preview links: only they may use the site-review API for it.
    if (origin) await tx.insert(orderReviewOrigins).values({ orderId: order.orderId, origin }).onConflictDoNothing();
    await recordAudit(tx, {
      actorUserId,
      action: 'order.review.open',
      entity: 'order',
      entityId: order.orderPublicId,
      before: null,
      after: { reviewId: row!.id, kind: body.kind, round, title: body.title, fileIds: body.fileIds, previewUrl },
    });
    await deps.events.publish(tx, 'review.opened', {
      ...order,
      reviewId: row!.id,
      kind: body.kind,
      round,
      title: body.title,
      fileIds: body.fileIds,
      previewUrl,
      openedByUserId: actorUserId,
      at: row!.createdAt,
    });
    return row!.id;
  });
  return readReview(deps.db, order, reviewId);
}
