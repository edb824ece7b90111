import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { sendApiNotFound } from './errors.ts';
import { SITE_CONFIG_ELEMENT_ID, type PublicSiteConfig } from '../../contract/site.ts';

const API_PREFIXES = ['/api/', '/api', '/socket.io/'];

/**
 * Serves the built React app. Hashed files under /assets are cached for a year; HTML is never
 * cached. A page request gets its prerendered HTML (dist/web/prerendered/<slug>.html, written at
 * build time for public pages) or the SPA shell (index.html), so deep links work. Unknown /api paths
 * get a JSON 404.
 */
export async function registerWeb(app: FastifyInstance, webDistDir: string, site: PublicSiteConfig) {
  // '<' is escaped so that no configured value can close the script element.
  const siteJson = JSON.stringify(site).replace(/</g, '\\u003c');
  const siteTag = `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">${siteJson}</script>`;
  const hasBuild = existsSync(join(webDistDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      prefix: '/',
      index: false,
      wildcard: true,
      preCompressed: true,
      setHeaders(reply, path) {
        reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        );
      },
    });
  }
  const htmlCache = new Map<string, string>();
  const readHtml = (file: string) => {
    let html = htmlCache.get(file);
    if (html === undefined) {
      html = readFileSync(file, 'utf8').replace('<!--site-config-->', siteTag);
      htmlCache.set(file, html);
    }
    return html;
  };

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p));
    const wantsHtml = (request.method === 'GET' || request.method === 'HEAD') && !isApi && !/\.[a-z0-9]+$/i.test(path);
    if (!wantsHtml) return reply.status(404).send(sendApiNotFound(request.method, request.url));
    if (!hasBuild) {
      return reply
        .status(503)
        .type('text/html; charset=utf-8')
        .send('<!doctype html><title>Not built</title><p>The web app is not built yet. Run <code>npm run build</code>.</p>');
    }
    const slug = path === '/' ? 'index' : path.replace(/^\/+|\/+$/g, '').replace(/[^\w/-]/g, '');
    const prerendered = join(webDistDir, 'prerendered', `${slug}.html`);
    const file = slug && !slug.includes('..') && existsSync(prerendered) ? prerendered : join(webDistDir, 'index.html');
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(readHtml(file));
  });
}
