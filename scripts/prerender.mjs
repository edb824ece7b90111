// Prerenders the public pages to real HTML at build time (§8), after `vite build`:
//   1. builds scripts/prerender-entry.tsx and the route table (src/web/routes.tsx) with Vite in
//      SSR mode (same config, same asset names),
//   2. renders each public route, and the not-found page, into the built index.html,
//   3. writes dist/web/prerendered/: <slug>.html ('index' for '/'), 404.html and manifest.json,
//      and dist/web/robots.txt and sitemap.xml.
//
// Contract with the server (src/server/plugins/web.ts, which reads all of it once at start-up):
// - PUBLIC_URL and the site's text settings are written as sentinels (src/server/lib/site-sentinels.ts);
//   the server substitutes the running configuration, injects the site-config JSON at
//   `<!--site-config-->`, compresses, and serves from memory. So nothing here depends on the
//   deployment: one build serves any PUBLIC_URL or brand.
// - manifest.json: { routes: every path pattern of the route table (the server answers 404 with
//   404.html for a path none of them matches, the app shell for one without a prerendered page),
//   pages: { "/about": "about.html", … }, notFound: "404.html" }.
// - Files in prerendered/ are not served under their own names.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

// Run with `node --import tsx` so that the server's own modules can be used.
const { loadConfig, publicSiteConfig } = await import('../src/server/config.ts');
const { robotsTxt } = await import('../src/domain/robots.ts');
const { sentinelSite, substituteSite, hasSentinel, PUBLIC_URL_SENTINEL } = await import('../src/server/lib/site-sentinels.ts');
const { routePatterns } = await import('../src/server/lib/route-patterns.ts');

const webDir = resolve(process.env.WEB_DIST_DIR ?? 'dist/web');
const ssrDir = `${webDir}-ssr`;

await build({
  configFile: resolve('vite.config.ts'),
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir: ssrDir,
    emptyOutDir: true,
    copyPublicDir: false,
    minify: false,
    rollupOptions: { input: { 'prerender-entry': resolve('scripts/prerender-entry.tsx'), 'route-table': resolve('src/web/routes.tsx') } },
  },
});
const ssrModule = (name) => {
  const file = readdirSync(ssrDir).find((f) => new RegExp(`^${name}\\.m?js$`).test(f));
  if (!file) throw new Error(`SSR build has no ${name}.js`);
  return import(pathToFileURL(join(ssrDir, file)).href);
};
const { renderPage, headFor, islandsDocument, PRERENDER_PATHS, SITEMAP_PATHS } = await ssrModule('prerender-entry');
const { routes } = await ssrModule('route-table');

// The build-time configuration only serves the check below; the pages carry sentinels.
const buildSite = publicSiteConfig(loadConfig({ ...process.env, NODE_ENV: 'development' }));
const buildUrl = 'http://build.check.invalid';
const site = sentinelSite(buildSite);

// The stylesheet is inlined into prerendered pages: one round trip less before the first paint
// (the CSP allows inline styles). Later navigations keep it, being one document.
const shell = readFileSync(join(webDir, 'index.html'), 'utf8');
const cssLink = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/.exec(shell);
// The pages load islands.ts, not the router app (docs/decisions/074).
const template = islandsDocument(
  cssLink ? shell.replace(cssLink[0], () => `<style>${readFileSync(join(webDir, cssLink[1]), 'utf8')}</style>`) : shell,
  webDir,
);
if (!template.includes('<!--app-html-->') || !template.includes('<!--site-config-->')) throw new Error('index.html lost its placeholders');
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const notFoundHead = (s) => `<title>Page not found — ${esc(s.brand)}</title>\n    <meta name="robots" content="noindex" />`;

/** One page: its head and markup in the template (it loads islands.ts only: decision 074). */
async function renderDocument(path, siteConfig, publicUrl) {
  const isNotFound = path === null;
  const html = await renderPage(isNotFound ? '/__not-found__' : path, siteConfig);
  const head = isNotFound ? notFoundHead(siteConfig) : headFor(path, siteConfig, publicUrl);
  return template.replace(/<title>[^<]*<\/title>/, () => head).replace('<!--app-html-->', () => html);
}

rmSync(join(webDir, 'prerendered'), { recursive: true, force: true });
mkdirSync(join(webDir, 'prerendered'), { recursive: true });
const pages = {};
for (const path of [...PRERENDER_PATHS, null]) {
  const page = await renderDocument(path, site, PUBLIC_URL_SENTINEL);
  // The contract check: the sentinels, substituted, give exactly the page rendered with the values.
  const direct = await renderDocument(path, buildSite, buildUrl);
  if (substituteSite(page, 'html', buildSite, buildUrl) !== direct || hasSentinel(direct)) {
    throw new Error(
      `prerender of ${path ?? 'the not-found page'}: a component transforms a site setting instead of placing it as is (see src/server/lib/site-sentinels.ts)`,
    );
  }
  const file = path === null ? '404.html' : `${path === '/' ? 'index' : path.slice(1)}.html`;
  if (path !== null) pages[path] = file;
  writeFileSync(join(webDir, 'prerendered', file), page);
  console.log(`prerendered ${path ?? 'not-found'} → prerendered/${file} (${(page.length / 1024).toFixed(1)} kB)`);
}
const manifest = { routes: routePatterns(routes), pages, notFound: '404.html' };
writeFileSync(join(webDir, 'prerendered', 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

const url = PUBLIC_URL_SENTINEL;
writeFileSync(join(webDir, 'robots.txt'), robotsTxt(url));
const today = new Date().toISOString().slice(0, 10);
writeFileSync(
  join(webDir, 'sitemap.xml'),
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${SITEMAP_PATHS.map(
    (p) =>
      `  <url><loc>${url}${p}</loc><lastmod>${today}</lastmod><changefreq>${p === '/' || p === '/pricing' ? 'weekly' : 'monthly'}</changefreq></url>`,
  ).join('\n')}\n</urlset>\n`,
);
if (existsSync(ssrDir)) rmSync(ssrDir, { recursive: true, force: true });

// JavaScript before interaction is measured in the browser, not read from the HTML (a static reading
// misses dynamic imports at load): bench/page-js.ts and tests/e2e/public-page-js.spec.ts (decision 115).
console.log(
  `prerendered ${PRERENDER_PATHS.length} pages, the not-found page, ${manifest.routes.length} route patterns; robots.txt and sitemap.xml with serve-time URLs`,
);
