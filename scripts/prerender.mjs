// Prerenders the public pages to real HTML at build time (DESIGN §2, §8), after `vite build`:
//   1. builds scripts/prerender-entry.tsx with Vite in SSR mode (same config, same asset names),
//   2. renders each public route into the built index.html (head tags + #root markup),
//   3. writes dist/web/prerendered/<slug>.html ('index' for '/'), robots.txt and sitemap.xml.
// The server sends prerendered/<slug>.html for a page request when it exists; main.tsx hydrates.
// Canonical and sitemap URLs use PUBLIC_URL at build time, the brand the BRAND_* variables.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const webDir = resolve(process.env.WEB_DIST_DIR ?? 'dist/web');
const ssrDir = `${webDir}-ssr`;
const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');

// Page → its lazy route chunk, preloaded so hydration does not wait for a second round trip.
const routeModule = {
  '/': 'landing',
  '/about': 'about',
  '/pricing': 'pricing',
  '/contact': 'contact',
  '/faqs': 'faqs',
  '/referAndEarn': 'refer-and-earn',
  '/privacypolicy': 'privacy',
  '/termsandconditions': 'terms',
  '/getAllRecommendations': 'recommendations',
};

await build({
  configFile: resolve('vite.config.ts'),
  logLevel: 'warn',
  build: { ssr: resolve('scripts/prerender-entry.tsx'), outDir: ssrDir, emptyOutDir: true, copyPublicDir: false, minify: false },
});
const entry = readdirSync(ssrDir).find((f) => /^prerender-entry\.m?js$/.test(f));
const { renderPage, headFor, PRERENDER_PATHS, SITEMAP_PATHS } = await import(pathToFileURL(join(ssrDir, entry)).href);

// Run with `node --import tsx` so that the server's own configuration module can be used.
const { loadConfig, publicSiteConfig } = await import('../src/server/config.ts');
const site = publicSiteConfig(loadConfig({ ...process.env, NODE_ENV: 'development' }));

// The stylesheet is inlined into prerendered pages: one round trip less before the first paint
// (the CSP allows inline styles). Later navigations keep it, being one document.
const shell = readFileSync(join(webDir, 'index.html'), 'utf8');
const cssLink = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/.exec(shell);
const template = cssLink ? shell.replace(cssLink[0], () => `<style>${readFileSync(join(webDir, cssLink[1]), 'utf8')}</style>`) : shell;
if (!template.includes('<!--app-html-->') || !template.includes('<!--site-config-->')) throw new Error('index.html lost its placeholders');
const assets = readdirSync(join(webDir, 'assets'));
mkdirSync(join(webDir, 'prerendered'), { recursive: true });

for (const path of PRERENDER_PATHS) {
  const html = await renderPage(path, site);
  const chunk = assets.find((f) => new RegExp(`^${routeModule[path]}-[\\w-]{8}\\.js$`).test(f));
  const head = `${headFor(path, site, publicUrl)}${chunk ? `\n    <link rel="modulepreload" href="/assets/${chunk}" />` : ''}`;
  const page = template.replace(/<title>[^<]*<\/title>/, head).replace('<!--app-html-->', html);
  const slug = path === '/' ? 'index' : path.slice(1);
  writeFileSync(join(webDir, 'prerendered', `${slug}.html`), page);
  console.log(`prerendered ${path} → prerendered/${slug}.html (${(page.length / 1024).toFixed(1)} kB)`);
}

writeFileSync(join(webDir, 'robots.txt'), `User-agent: *\nAllow: /\nDisallow: /dashboard\nDisallow: /pay\nDisallow: /status/\nDisallow: /admin\nDisallow: /adminChat\n\nSitemap: ${publicUrl}/sitemap.xml\n`);
const today = new Date().toISOString().slice(0, 10);
writeFileSync(
  join(webDir, 'sitemap.xml'),
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${SITEMAP_PATHS.map(
    (p) => `  <url><loc>${publicUrl}${p}</loc><lastmod>${today}</lastmod><changefreq>${p === '/' || p === '/pricing' ? 'weekly' : 'monthly'}</changefreq></url>`,
  ).join('\n')}\n</urlset>\n`,
);
if (existsSync(ssrDir)) rmSync(ssrDir, { recursive: true, force: true });
console.log(`prerendered ${PRERENDER_PATHS.length} pages; robots.txt and sitemap.xml for ${publicUrl}`);
