import { z } from 'zod';
import { multiLine } from './text-policy.ts';
import { REVIEW_LIMITS, REVIEW_STATES, COMMENT_AUTHORS, reviewParams, siteViewport } from './reviews.ts';
import { defineOperation } from './operation.ts';

// Reviewing the live site (decisions 240, 241). The customer's (or founder's) "Review the live
// site" asks POST /api/v1/orders/{orderId}/reviews/{reviewId}/site-link (founder: under
// /api/v1/admin/orders/…) for the preview URL with `#wc-review=<token>`; review.js on the staging
// site then lists and adds the round's comments at /api/v1/site-review/comments with
// `Authorization: Bearer <token>`, from the round's registered origin only.

export const SITE_REVIEW_LIMITS = {
  selector: 1000,
  pageUrl: 2000,
  browser: 200,
  /** The screenshot's bytes (PNG or JPEG) after decoding the data URL. */
  screenshotBytes: 2 * 1024 * 1024,
  viewport: 20000,
} as const;

export const siteLinkResponse = z.object({ success: z.literal(true), url: z.string(), expiresAt: z.string() });
export type SiteLinkResponse = z.infer<typeof siteLinkResponse>;

export const siteComment = z.object({
  id: z.string(),
  pageUrl: z.string(),
  selector: z.string(),
  x: z.number(),
  y: z.number(),
  viewport: siteViewport,
  text: z.string(),
  author: z.enum(COMMENT_AUTHORS),
  resolved: z.boolean(),
  screenshotFileId: z.string().nullable(),
  createdAt: z.string(),
});
export type SiteComment = z.infer<typeof siteComment>;

export const siteRound = z.object({ id: z.string(), title: z.string(), state: z.enum(REVIEW_STATES) });
export const siteCommentsResponse = z.object({ success: z.literal(true), round: siteRound, comments: z.array(siteComment) });
export type SiteCommentsResponse = z.infer<typeof siteCommentsResponse>;
export const siteCommentResponse = z.object({ success: z.literal(true), comment: siteComment });
export type SiteCommentResponse = z.infer<typeof siteCommentResponse>;

const pageUrl = z
  .string({ message: 'pageUrl must be the address of the page.' })
  .max(SITE_REVIEW_LIMITS.pageUrl, { message: `pageUrl can be at most ${SITE_REVIEW_LIMITS.pageUrl} characters.` })
  .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), { message: 'pageUrl must be an http(s) address.' });

export const siteCommentsQuery = z.object({ page: pageUrl.optional() });

const fraction = (axis: 'x' | 'y') =>
  z
    .number({ message: `${axis} must be a number from 0 to 1.` })
    .min(0, { message: `${axis} must be from 0 to 1 (a fraction of the element's ${axis === 'x' ? 'width' : 'height'}).` })
    .max(1, { message: `${axis} must be from 0 to 1 (a fraction of the element's ${axis === 'x' ? 'width' : 'height'}).` });
const side = (name: string) =>
  z
    .number({ message: `viewport.${name} must be a number.` })
    .int({ message: `viewport.${name} must be whole pixels.` })
    .min(1, { message: `viewport.${name} must be at least 1.` })
    .max(SITE_REVIEW_LIMITS.viewport, { message: `viewport.${name} can be at most ${SITE_REVIEW_LIMITS.viewport}.` });

export const siteCommentBody = z.object({
  pageUrl,
  selector: z
    .string({ message: 'selector must be the CSS selector of the element.' })
    .trim()
    .min(1, { message: 'selector must name the element.' })
    .max(SITE_REVIEW_LIMITS.selector, { message: `selector can be at most ${SITE_REVIEW_LIMITS.selector} characters.` }),
  x: fraction('x'),
  y: fraction('y'),
  viewport: z.object({
    width: side('width'),
    height: side('height'),
    dpr: z
      .number({ message: 'viewport.dpr must be a number.' })
      .positive({ message: 'viewport.dpr must be above 0.' })
      .max(10, { message: 'viewport.dpr can be at most 10.' }),
  }),
  browser: z
    .string()
    .trim()
    .max(SITE_REVIEW_LIMITS.browser, { message: `browser can be at most ${SITE_REVIEW_LIMITS.browser} characters.` })
    .default(''),
  text: multiLine(
    z
      .string()
      .trim()
      .min(1, { message: 'Write a comment.' })
      .max(REVIEW_LIMITS.comment, { message: `A comment can be at most ${REVIEW_LIMITS.comment} characters.` }),
  ),
  /** A PNG or JPEG data URL of the viewport with the pin marked (≤ 2 MB decoded: 413 above; the route's body limit bounds the string). */
  screenshot: z.string().optional(),
});
export type SiteCommentBody = z.infer<typeof siteCommentBody>;
export const siteScreenshotParams = z.object({ fileId: z.string().min(1).max(64) });

// Operations (docs/decisions/280-contract-operations.md).

/** review.js: the round's site pins (of one page with ?page=); Authorization: Bearer <site token> */
export const getSiteReviewComments = defineOperation({
  method: 'GET',
  path: '/api/v1/site-review/comments',
  query: siteCommentsQuery,
  responses: { 200: siteCommentsResponse },
});

/** review.js: drops a pin on an element of the live site (screenshot: PNG or JPEG data URL ≤ 2 MB) */
export const postSiteReviewComments = defineOperation({
  method: 'POST',
  path: '/api/v1/site-review/comments',
  body: siteCommentBody,
  responses: { 201: siteCommentResponse },
});

/** A link to the round's preview with a site token for review.js (the customer's) */
export const postOrdersReviewsSiteLink = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/reviews/:reviewId/site-link',
  params: reviewParams,
  responses: { 200: siteLinkResponse },
  secretAnswer: true,
});

/** A link to the round's preview with a site token for review.js (the back office's) */
export const postAdminOrdersReviewsSiteLink = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:orderId/reviews/:reviewId/site-link',
  params: reviewParams,
  responses: { 200: siteLinkResponse },
  secretAnswer: true,
});

/** review.js: the screenshot of one of the round's site pins (for pins whose element moved) */
export const getSiteReviewScreenshots = defineOperation({
  method: 'GET',
  path: '/api/v1/site-review/screenshots/:fileId',
  params: siteScreenshotParams,
  binary: true,
  responses: { 200: z.unknown().describe('image/png or image/jpeg') },
});
