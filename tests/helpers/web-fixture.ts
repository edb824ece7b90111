// A small web build for the serving tests, laid out as `npm run build` lays it out (see
// scripts/prerender.mjs): real pages rendered by the prerender entry with the serve-time sentinels,
// the not-found page, a manifest from the real route table, a hashed asset with .br/.gz variants.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { routes } from '../../src/web/routes.tsx';
import { headFor, renderPage } from '../../scripts/prerender-entry.tsx';
import { routePatterns } from '../../src/server/lib/route-patterns.ts';
import { PUBLIC_URL_SENTINEL, sentinelSite } from '../../src/server/lib/site-sentinels.ts';
import { publicSiteConfig, loadConfig } from '../../src/server/config.ts';

export const FIXTURE_ASSET = '/assets/app-Ab12Cd34.js';
/** The route patterns of the real route table (src/web/routes.tsx), as the prerender writes them. */
export const fixtureRoutePatterns = () => routePatterns(routes);

export const FIXTURE_PAGES = ['/', '/about', '/faqs'] as const;

const template = (head: string, body: string) =>
  `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    ${head}\n    <!--site-config-->\n  ` +
  `</head>\n  <body>\n    <div id="root">${body}</div>\n    <script type="module" crossorigin src="${FIXTURE_ASSET}"></script>\n  </body>\n</html>\n`;

/** The build is `<root>/web`; `<root>/secret.txt` and `<root>/package.json` sit next to it. */
export async function createWebFixture(): Promise<{ dir: string; remove(): void }> {
  const root = mkdtempSync(join(tmpdir(), 'web-fixture-'));
  const dir = join(root, 'web');
  mkdirSync(dir);
  const site = sentinelSite(publicSiteConfig(loadConfig({ NODE_ENV: 'test' })));
  mkdirSync(join(dir, 'prerendered'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), template('<title>Webcraft Studio</title>', ''));
  const pages: Record<string, string> = {};
  for (const path of FIXTURE_PAGES) {
    const file = `${path === '/' ? 'index' : path.slice(1)}.html`;
    pages[path] = file;
    writeFileSync(join(dir, 'prerendered', file), template(headFor(path, site, PUBLIC_URL_SENTINEL), await renderPage(path, site)));
  }
  writeFileSync(join(dir, 'prerendered', '404.html'), template('<title>Page not found</title>', await renderPage('/__not-found__', site)));
  writeFileSync(join(dir, 'prerendered', 'manifest.json'), JSON.stringify({ routes: fixtureRoutePatterns(), pages, notFound: '404.html' }));
  const js = Buffer.from(`export const answer = ${JSON.stringify('x'.repeat(4000))};\n`);
  writeFileSync(join(dir, FIXTURE_ASSET), js);
  writeFileSync(join(dir, `${FIXTURE_ASSET}.br`), brotliCompressSync(js));
  writeFileSync(join(dir, `${FIXTURE_ASSET}.gz`), gzipSync(js));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'robots.txt'), `User-agent: *\nAllow: /\n\nSitemap: ${PUBLIC_URL_SENTINEL}/sitemap.xml\n`);
  writeFileSync(
    join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ` +
      `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
      `${FIXTURE_PAGES.map((p) => `  <url><loc>${PUBLIC_URL_SENTINEL}${p}</loc></url>`).join('\n')}\n</urlset>\n`,
  );
  // Vite's manifest (a dot-folder: never served) and a file whose name a URL must escape.
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, '.vite', 'manifest.json'), '{"SECRET":{"file":"assets/app-Ab12Cd34.js"}}');
  mkdirSync(join(dir, 'images'));
  writeFileSync(join(dir, 'images', 'our team ü.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><title>team</title></svg>');
  // Files next to the build that no request may reach.
  writeFileSync(join(root, 'secret.txt'), 'SECRET');
  writeFileSync(join(root, 'package.json'), '{"name":"SECRET"}');
  return { dir, remove: () => rmSync(root, { recursive: true, force: true }) };
}
