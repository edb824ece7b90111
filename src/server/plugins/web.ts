import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiNotFound } from './errors.ts';
import type { PublicSiteConfig } from '../../contract/site.ts';
import { etagMatches, pickCoding, representationEtag, type Resource } from '../lib/http-cache.ts';
import { hasWebBuild, loadWebBuild, type WebBuild } from './web-build.ts';

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/') || path.startsWith('/socket.io/');
const hasExtension = (path: string) => /\.[a-z0-9]+$/i.test(path);
// '.' and '..' segments (also when they arrive percent-encoded) and NUL never name a page or file.
const isUnsafe = (path: string) => path.includes('\0') || path.includes('\\') || path.split('/').some((s) => s === '..' || s === '.');

const NOT_BUILT = '<!doctype html><title>Not built</title><p>The web app is not built yet. Run <code>npm run build</code>.</p>';

/** Sends a resource held in memory: negotiated coding, ETag/304, Vary, cache-control. */
function sendResource(request: FastifyRequest, reply: FastifyReply, resource: Resource, status = 200) {
  const coding = pickCoding(request.headers['accept-encoding'], resource);
  const etag = representationEtag(resource.etag, coding);
  reply.header('cache-control', status === 200 ? resource.cacheControl : 'no-cache');
  if (resource.br || resource.gzip) reply.header('vary', 'accept-encoding');
  if (status === 200) {
    reply.header('etag', etag);
    if (etagMatches(request.headers['if-none-match'], resource.etag)) return reply.code(304).send();
  }
  if (coding !== 'identity') reply.header('content-encoding', coding);
  const body = coding === 'br' ? resource.br! : coding === 'gzip' ? resource.gzip! : resource.identity;
  return reply.code(status).type(resource.type).send(body);
}

/**
 * Serves the built web app from memory (11.1). One GET/HEAD route below the API:
 * - a file of the build under its own name (hashed /assets/* cached for a year, others 5 minutes);
 * - a public page: its prerendered HTML with the running configuration (scripts/prerender.mjs);
 *   another spelling of its path (`/About`) is redirected (301) to the page's own;
 * - any other path of the web app's route table (signed-in pages, /status/:id, /admin/…): the app
 *   shell, 200, for client-side routing;
 * - any other path: 404 with the prerendered not-found page ('WRONG TURN?'), or a short text 404
 *   for a missing file; unknown /api paths a JSON 404.
 * Nothing is read from disk per request, so no request path can reach a file outside the build.
 */
export async function registerWeb(
  app: FastifyInstance,
  webDistDir: string,
  site: PublicSiteConfig,
  publicUrl: string,
): Promise<WebBuild | undefined> {
  const build = hasWebBuild(webDistDir) ? loadWebBuild(webDistDir, site, publicUrl, app.log) : undefined;

  /** Lower-cased route → the route as the site spells it (the router matches paths case-insensitively). */
  const pageSpelling = new Map([...(build?.pages.keys() ?? [])].map((route) => [route.toLowerCase(), route]));

  const apiNotFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send(sendApiNotFound(request.method, request.url));

  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url;
    const q = url.indexOf('?');
    const rawPath = q === -1 ? url : url.slice(0, q);
    if (isApiPath(rawPath)) return apiNotFound(request, reply);
    if (!build) return reply.status(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT);

    const file = build.files.get(rawPath);
    if (file) return sendResource(request, reply, file);

    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      return sendResource(request, reply, build.notFound, 404);
    }
    if (isUnsafe(path)) return sendResource(request, reply, build.notFound, 404);
    // A file whose name has spaces or other letters a URL escapes (`/images/our%20team.png`). The
    // maps hold the build's own names, so a decoded path can only ever name a file of the build.
    const decodedFile = path !== rawPath ? build.files.get(path) : undefined;
    if (decodedFile) return sendResource(request, reply, decodedFile);
    const route = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const page = build.pages.get(route);
    if (page) return sendResource(request, reply, page);
    // `/About`, `/referandearn`: the page under its one spelling (canonical URLs, one cache entry).
    const canonical = pageSpelling.get(route.toLowerCase());
    if (canonical) return reply.header('cache-control', 'public, max-age=3600').redirect(canonical + (q === -1 ? '' : url.slice(q)), 301);
    if (hasExtension(path))
      return reply.status(404).type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send('Not found');
    if (build.isPageRoute(path)) return sendResource(request, reply, build.shell);
    return sendResource(request, reply, build.notFound, 404);
  });

  // Other methods on paths no route serves: the JSON 404 of the API.
  app.setNotFoundHandler(apiNotFound);
  return build;
}
