// Reads the web build (dist/web, written by `npm run build`) into memory once, at start-up: every
// file with its precompressed variants, and the prerendered pages with the running configuration
// substituted (src/server/lib/site-sentinels.ts), the site-config JSON injected and compressed here.
// Requests then never touch the file system. See scripts/prerender.mjs for the
// contract of the prerendered/ directory.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzipSync } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { SITE_CONFIG_ELEMENT_ID, type PublicSiteConfig } from '../../contract/site.ts';
import { etagOf, type Resource } from '../lib/http-cache.ts';
import { compileRouteMatcher } from '../lib/route-patterns.ts';
import { substituteSite } from '../lib/site-sentinels.ts';

const brotli = promisify(brotliCompress);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
};

/** Vite's output under /assets has content hashes in its names: cached for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300';
/** HTML is revalidated on every visit (cheap: ETag → 304), so a deploy shows at once. */
const REVALIDATE = 'no-cache';

export interface WebBuild {
  /** URL path → file, for the files served under their own names. */
  files: Map<string, Resource>;
  /** Route path → prerendered page. */
  pages: Map<string, Resource>;
  shell: Resource;
  notFound: Resource;
  /** True when a path matches a route of the web app's route table (manifest.json). */
  isPageRoute(path: string): boolean;
  /** Resolves when every substituted page also has its brotli variant (gzip is there at once). */
  compressed: Promise<void>;
}

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const full = join(dir, f);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });

/**
 * Dot-files and dot-folders of the build are not served (`.vite/manifest.json` maps every source
 * file to its chunk), except `.well-known/`, which exists to be public.
 */
const isHidden = (rel: string) => rel.split('/').some((segment) => segment.startsWith('.') && segment !== '.well-known');

const readIfExists = (file: string) => (existsSync(file) ? readFileSync(file) : undefined);

export function hasWebBuild(dir: string) {
  return existsSync(join(dir, 'index.html'));
}

export function loadWebBuild(dir: string, site: PublicSiteConfig, publicUrl: string, log: FastifyBaseLogger): WebBuild {
  const files = new Map<string, Resource>();
  const pending: Promise<void>[] = [];

  // '<' is escaped so that no configured value can close the script element.
  const siteTag = `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">${JSON.stringify(site).replace(/</g, '\\u003c')}</script>`;
  const brandTitle = `<title>${site.brand.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</title>`;

  /** A file with serve-time values: substituted now, gzip now, brotli on the thread pool. */
  const generated = (text: string, type: string, cacheControl: string): Resource => {
    const identity = Buffer.from(text);
    const resource: Resource = { type, cacheControl, etag: etagOf(identity), identity };
    if (identity.length < 1024) return resource;
    resource.gzip = gzipSync(identity, { level: 9 });
    pending.push(
      brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }).then(
        (br) => {
          resource.br = br;
        },
      ),
    );
    return resource;
  };
  const page = (file: string, cacheControl = REVALIDATE) =>
    generated(
      substituteSite(readFileSync(file, 'utf8'), 'html', site, publicUrl).replace('<!--site-config-->', () => siteTag),
      TYPES['.html']!,
      cacheControl,
    );

  for (const full of walk(dir)) {
    const rel = relative(dir, full).split(sep).join('/');
    if (/\.(br|gz)$/.test(rel) || rel.startsWith('prerendered/') || rel === 'index.html' || isHidden(rel)) continue;
    const urlPath = `/${rel}`;
    const type = TYPES[extname(rel).toLowerCase()] ?? 'application/octet-stream';
    const cacheControl = rel.startsWith('assets/') ? IMMUTABLE : SHORT;
    if (rel === 'robots.txt' || rel === 'sitemap.xml') {
      const kind = rel === 'robots.txt' ? 'text' : 'xml';
      files.set(urlPath, generated(substituteSite(readFileSync(full, 'utf8'), kind, site, publicUrl), type, SHORT));
      continue;
    }
    const identity = readFileSync(full);
    const resource: Resource = { type, cacheControl, etag: etagOf(identity), identity };
    // Variants written by scripts/compress.mjs, kept only when they save bytes.
    const br = readIfExists(`${full}.br`);
    const gz = readIfExists(`${full}.gz`);
    if (br && br.length < identity.length) resource.br = br;
    if (gz && gz.length < identity.length) resource.gzip = gz;
    files.set(urlPath, resource);
  }

  const shellHtml = readFileSync(join(dir, 'index.html'), 'utf8').replace(/<title>[^<]*<\/title>/, () => brandTitle);
  const shell = generated(
    substituteSite(shellHtml, 'html', site, publicUrl).replace('<!--site-config-->', () => siteTag),
    TYPES['.html']!,
    REVALIDATE,
  );

  const prerendered = join(dir, 'prerendered');
  const manifestFile = join(prerendered, 'manifest.json');
  const pages = new Map<string, Resource>();
  let isPageRoute: (path: string) => boolean;
  let notFound: Resource;
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      routes: string[];
      pages: Record<string, string>;
      notFound: string;
    };
    for (const [route, file] of Object.entries(manifest.pages)) pages.set(route, page(join(prerendered, file)));
    notFound = page(join(prerendered, manifest.notFound));
    isPageRoute = compileRouteMatcher(manifest.routes);
  } else {
    // A build from before the manifest: every page path gets the app shell (client-side 404).
    log.warn({ dir }, 'web build has no prerendered/manifest.json: rebuild (npm run build) for 404s and serve-time configuration');
    if (existsSync(prerendered)) {
      for (const f of readdirSync(prerendered).filter((n) => n.endsWith('.html'))) {
        pages.set(f === 'index.html' ? '/' : `/${f.slice(0, -5)}`, page(join(prerendered, f)));
      }
    }
    notFound = shell;
    isPageRoute = () => true;
  }
  const compressed = Promise.all(pending).then(() => undefined);
  compressed.catch((err: unknown) => log.error({ err }, 'brotli compression of the pages failed: they go out gzip'));
  return { files, pages, shell, notFound, isPageRoute, compressed };
}
