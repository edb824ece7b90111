import { z } from 'zod';
import { multiLine } from './text-policy.ts';

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

export const reviewComment = z.object({
  id: z.string(),
  fileId: z.string(),
  x: z.number(),
  y: z.number(),
  text: z.string(),
  author: z.enum(COMMENT_AUTHORS),
  resolved: z.boolean(),
  createdAt: z.string(),
  /** Added to the shape: the pin an agency comment answers (null for a pin). */
  replyTo: z.string().nullable(),
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
export const openReviewBody = z.object({
  kind: z.enum(REVIEW_KINDS, { message: 'kind must be "ui" or "final".' }),
  title: z
    .string()
    .trim()
    .min(1, { message: 'Give the round a title.' })
    .max(REVIEW_LIMITS.title, { message: `A title can be at most ${REVIEW_LIMITS.title} characters.` }),
  note: multiLine(z.string().trim().max(REVIEW_LIMITS.note, { message: `A note can be at most ${REVIEW_LIMITS.note} characters.` })).optional(),
  fileIds: z
    .array(uuid)
    .min(1, { message: 'Choose at least one image or PDF of the order.' })
    .max(REVIEW_LIMITS.files, { message: `At most ${REVIEW_LIMITS.files} files in one round.` }),
  previewUrl: z
    .string()
    .trim()
    .max(REVIEW_LIMITS.previewUrl, { message: `The preview link can be at most ${REVIEW_LIMITS.previewUrl} characters.` })
    .refine((u) => isHttpUrl(u), { message: 'The preview link must be an http or https address.' })
    .optional(),
});
export type OpenReviewBody = z.infer<typeof openReviewBody>;

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

/** Founder: a comment of the agency, usually the answer to a pin (`replyTo`, placed at the pin). */
export const agencyCommentBody = reviewCommentBody.extend({ replyTo: uuid.optional() });
export type AgencyCommentBody = z.infer<typeof agencyCommentBody>;

/** Customer: the decision of an open round; asking for changes needs a comment or a pin of yours on the round. */
export const reviewDecisionBody = z.object({
  decision: z.enum(REVIEW_DECISIONS, { message: 'decision must be "approve" or "request_changes".' }),
  comment: multiLine(z.string().trim().max(REVIEW_LIMITS.comment, { message: `A comment can be at most ${REVIEW_LIMITS.comment} characters.` })).optional(),
});
export type ReviewDecisionBody = z.infer<typeof reviewDecisionBody>;
