import { Readable } from 'node:stream';
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { SiteComment, SiteCommentBody } from '../../../contract/site-review.ts';
import type { AppDeps } from '../../deps.ts';
import { orderReviewComments } from '../../db/schema/reviews.ts';
import { badRequest, conflict } from '../../lib/app-error.ts';
import { refuseFullRound } from '../reviews/comment-review.ts';
import { reviewOf, reviewRef } from '../reviews/review-order.ts';
import { deleteOrderFile } from '../order-files/order-files.ts';
import { uploadOrderFile } from '../order-files/upload-file.ts';
import { decodeScreenshot } from './screenshot.ts';
import type { SiteSession } from './site-token.ts';

// The comments of a round on its live site (decision 241): listed and added with a site token only.

type Row = typeof orderReviewComments.$inferSelect;

const toSiteComment = (c: Row): SiteComment => ({
  id: c.id,
  pageUrl: c.pageUrl ?? '',
  selector: c.selector ?? '',
  x: c.x,
  y: c.y,
  viewport: { width: c.viewportWidth ?? 0, height: c.viewportHeight ?? 0, dpr: c.viewportDpr ?? 1 },
  text: c.text,
  author: c.author,
  resolved: c.resolvedAt !== null,
  screenshotFileId: c.screenshotFileId,
  createdAt: c.createdAt.toISOString(),
});

/** A page, as pins are matched to it: the address without its fragment (which carries tokens and pin ids). */
export const pageKey = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}${u.search}`;
};

/** The round's site pins (answers are the founder's, in the workspace), oldest first; of one page if asked. */
export async function listSiteComments(deps: AppDeps, session: SiteSession, page?: string): Promise<SiteComment[]> {
  const rows = await deps.db
    .select()
    .from(orderReviewComments)
    .where(
      and(eq(orderReviewComments.reviewId, session.review.id), isNotNull(orderReviewComments.pageUrl), isNull(orderReviewComments.replyTo)),
    )
    .orderBy(asc(orderReviewComments.createdAt), asc(orderReviewComments.id));
  const key = page ? pageKey(page) : null;
  return rows.filter((r) => !key || pageKey(r.pageUrl!) === key).map(toSiteComment);
}

/**
 * A pin on the live site. The page must be on the round's own origin; the screenshot, checked from
 * its bytes, becomes an order file first (it streams to storage outside the transaction) and is
 * removed again if the pin is refused. The pin publishes `review.commented` like an image pin, so
 * notices batch it with the others.
 */
export async function addSiteComment(deps: AppDeps, session: SiteSession, body: SiteCommentBody): Promise<SiteComment> {
  if (new URL(body.pageUrl).origin !== session.review.origin)
    throw badRequest(`pageUrl must be a page of ${session.review.origin}, the site of this review round.`);
  const shot = body.screenshot ? decodeScreenshot(body.screenshot) : null;
  const viewer = { side: session.author, userId: session.userId };
  const fileOrder = { id: session.order.orderId, publicId: session.order.orderPublicId };
  const file = shot
    ? await uploadOrderFile(deps, fileOrder, viewer, {
        filename: `site-pin-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.${shot.extension}`,
        file: Readable.from([shot.bytes]),
      })
    : null;
  try {
    const row = await deps.events.transaction(async (tx) => {
      const review = await reviewOf(tx, session.order, session.review.id, 'share');
      if (review.state !== 'open') throw conflict('This round is already decided: pins can be added only while a round is open.');
      await refuseFullRound(tx, review.id);
      const [inserted] = await tx
        .insert(orderReviewComments)
        .values({
          reviewId: review.id,
          fileId: null,
          x: body.x,
          y: body.y,
          text: body.text,
          author: session.author,
          authorUserId: session.userId,
          pageUrl: body.pageUrl,
          selector: body.selector,
          viewportWidth: body.viewport.width,
          viewportHeight: body.viewport.height,
          viewportDpr: body.viewport.dpr,
          browser: body.browser || null,
          screenshotFileId: file?.id ?? null,
        })
        .returning();
      await deps.events.publish(tx, 'review.commented', {
        ...reviewRef(session.order, review),
        commentId: inserted!.id,
        author: session.author,
        authorUserId: session.userId,
        fileId: null,
        replyTo: null,
        text: inserted!.text,
        at: inserted!.createdAt,
      });
      return inserted!;
    });
    return toSiteComment(row);
  } catch (err) {
    if (file) await deleteOrderFile(deps, fileOrder, file.id, viewer).catch(() => {});
    throw err;
  }
}

/** A screenshot of one of the round's site pins, for the script's "moved or removed" list. */
export async function siteScreenshotId(deps: AppDeps, session: SiteSession, fileId: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: orderReviewComments.id })
    .from(orderReviewComments)
    .where(and(eq(orderReviewComments.reviewId, session.review.id), eq(orderReviewComments.screenshotFileId, fileId)))
    .limit(1);
  return Boolean(row);
}
