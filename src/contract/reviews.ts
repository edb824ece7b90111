import { z } from 'zod';
import { multiLine } from './text-policy.ts';
import { defineOperation } from './operation.ts';

// Design reviews with pinned comments (decision 150).
// Customer: GET /api/v1/orders/{orderId}/reviews, POST …/reviews/{reviewId}/comments (a pin),
// POST …/reviews/{reviewId}/decision. Founder, under /api/v1/admin/orders/{orderId}/reviews: the
// same list, POST to open a round, POST …/comments (answers), POST …/comments/{commentId}/resolve.
// `orderId` is the public id (ORD…); another customer's order is answered like a missing one (404).

export const REVIEW_KINDS = ['ui', 'final'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];
export const REVIEW_STATES = ['open', 'approved', 'changes_requested'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
export const REVIEW_DECISIONS = ['approve', 'request_changes'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];
export const COMMENT_AUTHORS = ['customer', 'agency'] as const;

/** Limits, shared by the forms and the server (and the database's checks). */
export const REVIEW_LIMITS = { title: 120, note: 4000, previewUrl: 2000, files: 20, comment: 2000, commentsPerRound: 500 } as const;

const uuid = z.string().uuid({ message: 'Must be a file or comment id (a UUID).' });
/** A fraction of the image's width or height: 0 is the left/top edge, 1 the right/bottom edge. */
const fraction = (axis: 'x' | 'y') =>
  z
    .number({ message: `${axis} must be a number from 0 to 1.` })
    .min(0, { message: `${axis} must be from 0 to 1 (a fraction of the image's ${axis === 'x' ? 'width' : 'height'}).` })
    .max(1, { message: `${axis} must be from 0 to 1 (a fraction of the image's ${axis === 'x' ? 'width' : 'height'}).` });
const commentText = multiLine(
  z
    .string()
    .trim()
    .min(1, { message: 'Write a comment.' })
    .max(REVIEW_LIMITS.comment, { message: `A comment can be at most ${REVIEW_LIMITS.comment} characters.` }),
);

/** The browser window a site pin was dropped in (decision 241). */
export const siteViewport = z.object({ width: z.number().int(), height: z.number().int(), dpr: z.number() });
export type SiteViewport = z.infer<typeof siteViewport>;

export const reviewComment = z.object({
  id: z.string(),
  /** The round's file the pin is on; null for a pin on the live site (decision 241). */
  fileId: z.string().nullable(),
  x: z.number(),
  y: z.number(),
  text: z.string(),
  author: z.enum(COMMENT_AUTHORS),
  resolved: z.boolean(),
  createdAt: z.string(),
  /** Added to the shape: the pin an agency comment answers (null for a pin). */
  replyTo: z.string().nullable(),
  /** A pin on the live site (decision 241): the page, the element's CSS selector, the window, the screenshot (an order file); null for image pins. */
  pageUrl: z.string().nullable(),
  selector: z.string().nullable(),
  viewport: siteViewport.nullable(),
  screenshotFileId: z.string().nullable(),
  /** Added to the shape: the browser and OS of a site pin ("Safari iOS"); null for image pins. */
  browser: z.string().nullable(),
});
export type ReviewComment = z.infer<typeof reviewComment>;

export const review = z.object({
  id: z.string(),
  kind: z.enum(REVIEW_KINDS),
  /** 1, 2, … per order and kind. */
  round: z.number().int(),
  title: z.string(),
  note: z.string().nullable(),
  /** The round's files in the founder's order: ids of the order's files (GET …/files/{fileId}). */
  fileIds: z.array(z.string()),
  previewUrl: z.string().nullable(),
  state: z.enum(REVIEW_STATES),
  decidedAt: z.string().nullable(),
  /** Added to the shape: what the customer wrote with the decision. */
  decisionComment: z.string().nullable(),
  comments: z.array(reviewComment),
  createdAt: z.string(),
});
export type Review = z.infer<typeof review>;

export const reviewsResponse = z.object({ success: z.literal(true), reviews: z.array(review) });
export type ReviewsResponse = z.infer<typeof reviewsResponse>;
export const reviewResponse = z.object({ success: z.literal(true), review });
export type ReviewResponse = z.infer<typeof reviewResponse>;
export const reviewCommentResponse = z.object({ success: z.literal(true), comment: reviewComment });
export type ReviewCommentResponse = z.infer<typeof reviewCommentResponse>;

export const reviewsParams = z.object({ orderId: z.string().min(1).max(40) });
export const reviewParams = reviewsParams.extend({ reviewId: z.string().min(1).max(64) });
export const reviewCommentParams = reviewParams.extend({ commentId: z.string().min(1).max(64) });

/** Founder: opens the next round of `kind` on one or more images/PDFs of the order. */
export const openReviewBody = z
  .object({
    kind: z.enum(REVIEW_KINDS, { message: 'kind must be "ui" or "final".' }),
    title: z
      .string()
      .trim()
      .min(1, { message: 'Give the round a title.' })
      .max(REVIEW_LIMITS.title, { message: `A title can be at most ${REVIEW_LIMITS.title} characters.` }),
    note: multiLine(
      z
        .string()
        .trim()
        .max(REVIEW_LIMITS.note, { message: `A note can be at most ${REVIEW_LIMITS.note} characters.` }),
    ).optional(),
    /** May be empty when the round reviews the live site at `previewUrl` (decision 241). */
    fileIds: z.array(uuid).max(REVIEW_LIMITS.files, { message: `At most ${REVIEW_LIMITS.files} files in one round.` }),
    previewUrl: z
      .string()
      .trim()
      .max(REVIEW_LIMITS.previewUrl, { message: `The preview link can be at most ${REVIEW_LIMITS.previewUrl} characters.` })
      .refine((u) => isHttpUrl(u), { message: 'The preview link must be an http or https address.' })
      .optional(),
  })
  .refine((b) => b.fileIds.length > 0 || Boolean(b.previewUrl), {
    path: ['fileIds'],
    message: 'Choose at least one image or PDF of the order, or give the preview link of the site to review.',
  });
export type OpenReviewBody = z.infer<typeof openReviewBody>;

/**
 * The origin of a preview link that may talk to the site-review API: https, or http on localhost /
 * 127.0.0.1 for development (decision 240); null for anything else.
 */
export function reviewOrigin(url: string): string | null {
  if (!isHttpUrl(url)) return null;
  const u = new URL(url);
  if (u.username || u.password) return null;
  if (u.protocol === 'https:' || u.hostname === 'localhost' || u.hostname === '127.0.0.1') return u.origin;
  return null;
}

/** A full http(s) URL with a host; javascript:, data:, relative links and the like are refused. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return Boolean(new URL(value).hostname);
  } catch {
    return false;
  }
}

/** Customer: a pin on one of the round's files. */
export const reviewCommentBody = z.object({ fileId: uuid, x: fraction('x'), y: fraction('y'), text: commentText });
export type ReviewCommentBody = z.infer<typeof reviewCommentBody>;

/** Customer: corrects the text of their own pin, while the round is open and the agency has not answered it. */
export const editPinBody = z.object({ text: commentText });
export type EditPinBody = z.infer<typeof editPinBody>;
export const deletePinResponse = z.object({ success: z.literal(true) });

/** server → client on the order's socket room: a round of the order changed (opened, pinned, decided); read it again. */
export const REVIEW_SOCKET_EVENTS = { reviewChanged: 'reviewChanged' } as const;
export const reviewChangedEvent = z.object({ orderId: z.string(), reviewId: z.string() });
export type ReviewChangedEvent = z.infer<typeof reviewChangedEvent>;

/**
 * Founder: a comment of the agency, usually the answer to a pin (`replyTo`, placed at the pin). An
 * answer to a site pin has no file: `fileId` may then be left out, the answer takes the pin's place.
 */
export const agencyCommentBody = reviewCommentBody
  .extend({ fileId: uuid.optional(), replyTo: uuid.optional() })
  .refine((b) => Boolean(b.fileId || b.replyTo), {
    path: ['fileId'],
    message: "Pin the comment on one of the round's files, or answer a pin (replyTo).",
  });
export type AgencyCommentBody = z.infer<typeof agencyCommentBody>;

/** Customer: the decision of an open round; asking for changes needs a comment or a pin of yours on the round. */
export const reviewDecisionBody = z.object({
  decision: z.enum(REVIEW_DECISIONS, { message: 'decision must be "approve" or "request_changes".' }),
  comment: multiLine(
    z
      .string()
      .trim()
      .max(REVIEW_LIMITS.comment, { message: `A comment can be at most ${REVIEW_LIMITS.comment} characters.` }),
  ).optional(),
});
export type ReviewDecisionBody = z.infer<typeof reviewDecisionBody>;

// Operations (docs/decisions/280-contract-operations.md).

/** Drops a pin with a comment on one of the round's files (x, y: fractions 0..1 of the image); only while the round is open (409 after) */
export const postOrdersReviewsComments = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/reviews/:reviewId/comments',
  params: reviewParams,
  body: reviewCommentBody,
  responses: { 201: reviewCommentResponse },
});

/** Corrects the text of your own pin while the round is open and before the agency answers it (409 after) */
export const patchOrdersReviewsCommentsByCommentId = defineOperation({
  method: 'PATCH',
  path: '/api/v1/orders/:orderId/reviews/:reviewId/comments/:commentId',
  params: reviewCommentParams,
  body: editPinBody,
  responses: { 200: reviewCommentResponse },
});

/** Takes back your own pin while the round is open and before the agency answers it (409 after) */
export const deleteOrdersReviewsCommentsByCommentId = defineOperation({
  method: 'DELETE',
  path: '/api/v1/orders/:orderId/reviews/:reviewId/comments/:commentId',
  params: reviewCommentParams,
  responses: { 200: deletePinResponse },
});

/** Approves the round or requests changes (a comment or a pin says what); a round is decided once (409) */
export const postOrdersReviewsDecision = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/reviews/:reviewId/decision',
  params: reviewParams,
  body: reviewDecisionBody,
  responses: { 200: reviewResponse },
});

/** Opens the next review round (ui or final) on images/PDFs of the order; 409 while a round of the kind is open */
export const postAdminOrdersReviews = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:orderId/reviews',
  params: reviewsParams,
  body: openReviewBody,
  responses: { 201: reviewResponse },
});

/** The agency's comment on a round, usually the answer to a pin (replyTo) */
export const postAdminOrdersReviewsComments = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:orderId/reviews/:reviewId/comments',
  params: reviewParams,
  body: agencyCommentBody,
  responses: { 201: reviewCommentResponse },
});

/** Marks a comment resolved (again: unchanged) */
export const postAdminOrdersReviewsCommentsResolve = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:orderId/reviews/:reviewId/comments/:commentId/resolve',
  params: reviewCommentParams,
  responses: { 200: reviewCommentResponse },
});

/** The order's review rounds with their files, pins and decisions, oldest first (the customer's) */
export const getOrdersReviews = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/reviews',
  params: reviewsParams,
  responses: { 200: reviewsResponse },
});

/** The order's review rounds with their files, pins and decisions, oldest first (the back office's) */
export const getAdminOrdersReviews = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/reviews',
  params: reviewsParams,
  responses: { 200: reviewsResponse },
});
