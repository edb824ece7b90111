import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { notFound, tooManyRequests } from '../../lib/app-error.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { openOrderFile } from '../order-files/order-files.ts';
import { reviewOrder, type Side } from '../reviews/review-order.ts';
import { addSiteComment, listSiteComments, siteScreenshotId } from './site-comments.ts';
import { checkSiteOrigin, createSiteLink, isRegisteredOrigin, siteSessionOf } from './site-token.ts';
import { route } from '../../lib/route.ts';
import {
  getSiteReviewComments,
  getSiteReviewScreenshots,
  postAdminOrdersReviewsSiteLink,
  postOrdersReviewsSiteLink,
  postSiteReviewComments,
} from '../../../contract/site-review.ts';

// Reviewing the live site (decisions 240, 241). The site-link routes sit beside the reviews' own
// (customer, and founder under /admin); the site-review API answers review.js on the staging site,
// with CORS for the round's registered origin only — the app's CORS plugin is off on these routes.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors reads this: `false` turns the app's CORS off on a route that answers CORS itself. */
    cors?: false;
  }
}

const siteLink = (deps: AppDeps, side: Side) => async (request: FastifyRequest & { params: { orderId: string; reviewId: string } }) => {
  const viewer = { side, userId: authOf(request).user.id };
  const order = await reviewOrder(deps.db, request.params.orderId, viewer);
  const { url, expiresAt } = await createSiteLink(deps, order, request.params.reviewId, viewer);
  return { success: true as const, url, expiresAt: expiresAt.toISOString() };
};
const LINK_SUMMARY =
  "A link to the round's preview with a site token (#wc-review=…) for review.js: this round, this " +
  'person, comments only; expires after SITE_REVIEW_TOKEN_HOURS or when the round is decided';

export const siteLinkRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    postOrdersReviewsSiteLink,
    { schema: { tags: ['reviews'], summary: LINK_SUMMARY }, onRequest: requireUser(deps.db), config: perSession(30) },
    siteLink(deps, 'customer'),
  );
};

export const adminSiteLinkRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    postAdminOrdersReviewsSiteLink,
    { schema: { tags: ['admin'], summary: LINK_SUMMARY }, config: perSession(30) },
    siteLink(deps, 'agency'),
  );
};

/** Per token (the route's limit) and per address (this hook): a leaked token or a script loop cannot flood a round. */
const LIMITS = { comments: { token: 20, address: 60 }, reads: { token: 120, address: 600 } } as const;
const tokenKey = (req: FastifyRequest) => `site-token:${req.headers.authorization?.slice(-43) ?? req.ip}`;

function grant(reply: FastifyReply, origin: string) {
  reply.header('access-control-allow-origin', origin);
  reply.header('vary', 'Origin');
}

export const siteReviewRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['site-review'];
  // A second counter beside the route's own (per token): @fastify/rate-limit runs one limit hook per
  // request, so the per-address count is asked of the limiter directly.
  const perAddress = (max: number, operation: string) => {
    const limit = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (req) => `site-review:${operation}:${req.ip}` });
    return async (request: FastifyRequest) => {
      const result = await limit(request);
      if (!result.isAllowed && result.isExceeded)
        throw tooManyRequests('Too many review requests from this address. Please try again in a minute.');
    };
  };
  // Errors other than the origin's own refusal stay readable by the script of a registered origin
  // (an expired link, a rate limit); a 403 for an origin is never granted.
  app.addHook('onSend', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || reply.getHeader('access-control-allow-origin') || reply.statusCode === 403) return;
    if (await isRegisteredOrigin(deps.db, origin)) grant(reply, origin);
  });

  // The preflight carries no token: it is granted to origins some order registered; the request
  // itself is then checked against its round's own origin.
  app.options('/site-review/*', { schema: { hide: true }, config: { cors: false } }, async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !(await isRegisteredOrigin(deps.db, origin))) return reply.status(403).send();
    grant(reply, origin);
    reply.header('access-control-allow-methods', 'GET, POST');
    reply.header('access-control-allow-headers', 'authorization, content-type');
    reply.header('access-control-max-age', '600');
    return reply.status(204).header('content-length', '0').send();
  });

  route(
    app,
    getSiteReviewComments,
    {
      schema: { tags, summary: "review.js: the round's site pins (of one page with ?page=); Authorization: Bearer <site token>" },
      config: { cors: false, rateLimit: { max: LIMITS.reads.token, timeWindow: '1 minute', keyGenerator: tokenKey } },
      onRequest: perAddress(LIMITS.reads.address, 'list'),
    },
    async (request, reply) => {
      const session = await siteSessionOf(deps.db, request.headers.authorization);
      await checkSiteOrigin(deps.db, session, request.headers.origin);
      grant(reply, request.headers.origin!);
      const { id, title, state } = session.review;
      return { success: true as const, round: { id, title, state }, comments: await listSiteComments(deps, session, request.query.page) };
    },
  );

  route(
    app,
    postSiteReviewComments,
    {
      schema: { tags, summary: 'review.js: drops a pin on an element of the live site (screenshot: PNG or JPEG data URL ≤ 2 MB)' },
      bodyLimit: 3 * 1024 * 1024,
      config: { cors: false, rateLimit: { max: LIMITS.comments.token, timeWindow: '1 minute', keyGenerator: tokenKey } },
      onRequest: perAddress(LIMITS.comments.address, 'comment'),
    },
    async (request, reply) => {
      const session = await siteSessionOf(deps.db, request.headers.authorization);
      await checkSiteOrigin(deps.db, session, request.headers.origin);
      grant(reply, request.headers.origin!);
      return reply.status(201).send({ success: true as const, comment: await addSiteComment(deps, session, request.body) });
    },
  );

  route(
    app,
    getSiteReviewScreenshots,
    {
      schema: { tags, summary: "review.js: the screenshot of one of the round's site pins (for pins whose element moved)" },
      config: { cors: false, rateLimit: { max: LIMITS.reads.token, timeWindow: '1 minute', keyGenerator: tokenKey } },
      onRequest: perAddress(LIMITS.reads.address, 'screenshot'),
    },
    async (request, reply) => {
      const session = await siteSessionOf(deps.db, request.headers.authorization);
      await checkSiteOrigin(deps.db, session, request.headers.origin);
      if (!(await siteScreenshotId(deps, session, request.params.fileId))) throw notFound('Screenshot not found.');
      const { file, body } = await openOrderFile(
        deps,
        { id: session.order.orderId, publicId: session.order.orderPublicId },
        request.params.fileId,
      );
      grant(reply, request.headers.origin!);
      reply
        .header('content-type', file.contentType)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff');
      return reply.send(body);
    },
  );
};
