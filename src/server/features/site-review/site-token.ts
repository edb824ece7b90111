import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { reviewOrigin } from '../../../contract/reviews.ts';
import { SITE_TOKEN_FRAGMENT, SITE_TOKEN_PATTERN } from '../../../contract/site-review-fragment.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { orderReviewOrigins, orderReviewSiteTokens, orderReviews } from '../../db/schema/reviews.ts';
import { conflict, forbidden, unauthorized } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import type { OrderRef } from '../../lib/domain-events.ts';
import { reviewOf, type Viewer } from '../reviews/review-order.ts';

// The site token (decision 240): a capability for one round, one person, comments only. 32 random
// bytes in base64url; only its SHA-256 is stored, so a copy of the database opens no round.

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The preview URL with the token in its fragment: the fragment never reaches the staging server. */
export async function createSiteLink(
  deps: AppDeps,
  order: OrderRef,
  reviewId: string,
  viewer: Viewer,
): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.config.SITE_REVIEW_TOKEN_HOURS * 3600_000);
  const previewUrl = await deps.db.transaction(async (tx) => {
    const review = await reviewOf(tx, order, reviewId, 'share');
    if (!review.previewUrl) throw conflict('This round has no preview link: there is no live site to review.');
    if (review.state !== 'open') throw conflict('This round is already decided: the live site can be reviewed only while a round is open.');
    if (!reviewOrigin(review.previewUrl))
      throw conflict(
        'The preview link of this round is not https (or http://localhost for development): the live site cannot be reviewed from it.',
      );
    const [row] = await tx
      .insert(orderReviewSiteTokens)
      .values({ reviewId: review.id, userId: viewer.userId, author: viewer.side, tokenHash: hashOf(token), expiresAt })
      .returning({ id: orderReviewSiteTokens.id });
    if (viewer.side === 'agency') {
      await recordAudit(tx, {
        actorUserId: viewer.userId,
        action: 'order.review.site_link',
        entity: 'order',
        entityId: order.orderPublicId,
        before: null,
        after: { reviewId: review.id, round: review.round, kind: review.kind, tokenId: row!.id, expiresAt: expiresAt.toISOString() },
      });
    }
    return review.previewUrl;
  });
  const url = new URL(previewUrl);
  url.hash = `${SITE_TOKEN_FRAGMENT}=${token}`;
  return { url: url.toString(), expiresAt };
}

export interface SiteSession {
  tokenId: string;
  userId: string;
  author: 'customer' | 'agency';
  order: OrderRef;
  review: { id: string; title: string; state: 'open' | 'approved' | 'changes_requested'; origin: string };
}

const BAD_TOKEN = 'This review link is not valid any more: open "Review the live site" from your order again.';

/**
 * The round a bearer token opens, or 401. A token of a decided round, an expired or revoked one, or
 * any string that is not a token are all the same answer (nothing tells them apart).
 */
export async function siteSessionOf(db: Db, authorization: string | undefined): Promise<SiteSession> {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '';
  if (!SITE_TOKEN_PATTERN.test(token)) throw unauthorized(BAD_TOKEN);
  const [row] = await db
    .select({ token: orderReviewSiteTokens, review: orderReviews, orderPublicId: orders.publicId, customerEmail: users.email })
    .from(orderReviewSiteTokens)
    .innerJoin(orderReviews, eq(orderReviews.id, orderReviewSiteTokens.reviewId))
    .innerJoin(orders, eq(orders.id, orderReviews.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orderReviewSiteTokens.tokenHash, hashOf(token)), isNull(orderReviewSiteTokens.revokedAt)));
  if (!row || row.token.expiresAt.getTime() <= Date.now() || row.review.state !== 'open' || !row.review.previewUrl)
    throw unauthorized(BAD_TOKEN);
  const origin = reviewOrigin(row.review.previewUrl);
  if (!origin) throw unauthorized(BAD_TOKEN);
  return {
    tokenId: row.token.id,
    userId: row.token.userId,
    author: row.token.author,
    order: { orderId: row.review.orderId, orderPublicId: row.orderPublicId, customerEmail: row.customerEmail },
    review: { id: row.review.id, title: row.review.title, state: row.review.state, origin },
  };
}

/** A request's Origin must be the round's own registered origin; anything else is 403 with no CORS grant. */
export async function checkSiteOrigin(db: Db, session: SiteSession, origin: string | undefined): Promise<void> {
  if (!origin || origin !== session.review.origin) throw forbidden('This site is not the preview of this review round.');
  const [registered] = await db
    .select({ origin: orderReviewOrigins.origin })
    .from(orderReviewOrigins)
    .where(and(eq(orderReviewOrigins.orderId, session.order.orderId), eq(orderReviewOrigins.origin, origin)));
  if (!registered) throw forbidden('This site is not the preview of this review round.');
}

/** Whether any order registered this origin (a preflight carries no token, so this is all it can know). */
export async function isRegisteredOrigin(db: Db, origin: string): Promise<boolean> {
  const [row] = await db
    .select({ origin: orderReviewOrigins.origin })
    .from(orderReviewOrigins)
    .where(eq(orderReviewOrigins.origin, origin))
    .limit(1);
  return Boolean(row);
}

/** The round was decided: its tokens stop at once (the state check refuses them anyway; this records when). */
export async function revokeSiteTokens(tx: Tx, reviewId: string, at: Date): Promise<void> {
  await tx
    .update(orderReviewSiteTokens)
    .set({ revokedAt: at })
    .where(and(eq(orderReviewSiteTokens.reviewId, reviewId), isNull(orderReviewSiteTokens.revokedAt)));
}
