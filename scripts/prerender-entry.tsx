// Server-side entry of the prerender (built by Vite in SSR mode, run by scripts/prerender.mjs):
// renders one public page to HTML with React Router's static handler, and its <head> tags.
// The page's islands are rendered each as its own root, exactly as islands.ts hydrates them
// (docs/decisions/074); islandsDocument() makes the page load islands.ts instead of the router app.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { PublicSiteConfig } from '../src/contract/site.ts';
import { routes } from '../src/web/routes.tsx';
import { createQueryClient } from '../src/web/lib/use-operation.ts';
import { PAGE_META, metaFor } from '../src/web/features/seo/page-meta.ts';
import { FAQS, faqAnswer } from '../src/web/features/landing/faqs-data.ts';
import { setIslandRenderer } from '../src/web/islands/island.tsx';
import { IslandRoot } from '../src/web/islands/island-root.tsx';
import { CouponPopup } from '../src/web/features/promotion/coupon-popup.tsx';
import { COUPON_POPUP_TEMPLATE_ID } from '../src/web/features/promotion/coupon-popup-dom.ts';
import { POPUP_PATHS } from '../src/web/features/promotion/popup-rule.ts';

export const PRERENDER_PATHS = Object.keys(PAGE_META);
export const SITEMAP_PATHS = PRERENDER_PATHS.filter((p) => PAGE_META[p]!.indexable);

export async function renderPage(path: string, site: PublicSiteConfig): Promise<string> {
  (globalThis as { __SITE_CONFIG__?: PublicSiteConfig }).__SITE_CONFIG__ = site;
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender.local${path}`));
  if (context instanceof Response) throw new Error(`prerender of ${path} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // An island has no router, no layout around it: a component that needs them fails here, at build time.
  // The query client renders no element: an island's markup is the same with it (its reads render empty).
  setIslandRenderer((_name, node, id) =>
    renderToString(
      <QueryClientProvider client={createQueryClient()}>
        <IslandRoot>{node}</IslandRoot>
      </QueryClientProvider>,
      { identifierPrefix: id },
    ),
  );
  try {
    const html = renderToString(
      <StrictMode>
        {/* The app's reads (useOperation) render empty here, as before their answer: nothing is fetched at build time. */}
        <QueryClientProvider client={createQueryClient()}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </QueryClientProvider>
      </StrictMode>,
    );
    return POPUP_PATHS.includes(path) ? html + couponPopupTemplate() : html;
  } finally {
    setIslandRenderer(null);
  }
}

/**
 * The coupon popup's markup for its DOM island (coupon-popup-dom.ts, decision 115), which fills in
 * the promotion: rendered from the one CouponPopup component, inert inside a <template> until then.
 */
function couponPopupTemplate(): string {
  const placeholder = { code: '', percent: 0, endsAt: null, description: null };
  return `<template id="${COUPON_POPUP_TEMPLATE_ID}">${renderToString(<CouponPopup promotion={placeholder} onClose={() => {}} />)}</template>`;
}

/**
 * The built index.html made into the prerendered pages' document: the router app's entry script and
 * its module preloads give way to islands.ts and the chunks it imports statically (small shared modules).
 */
export function islandsDocument(template: string, webDir: string): string {
  const manifest = JSON.parse(readFileSync(join(webDir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[] }
  >;
  const entry = manifest['islands.ts'];
  if (!entry) throw new Error('the client build has no islands.ts entry (vite.config.ts build input)');
  const preloads = (entry.imports ?? []).map((key) => `<link rel="modulepreload" crossorigin href="/${manifest[key]!.file}">`);
  const stripped = template
    .replace(/\s*<script type="module" crossorigin src="\/assets\/[^"]+"><\/script>/, '')
    .replace(/\s*<link rel="modulepreload" crossorigin href="\/assets\/[^"]+">/g, '');
  if (stripped.includes('src="/assets/')) throw new Error('index.html: the router entry script was not found');
  return stripped.replace(
    '</head>',
    () => `  <script type="module" crossorigin src="/${entry.file}"></script>\n    ${preloads.join('\n    ')}\n  </head>`,
  );
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// JSON inside <script>: '<' escaped so that no value can close the element.
const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** Title, description, canonical, Open Graph, Twitter card and JSON-LD for one page. */
export function headFor(path: string, site: PublicSiteConfig, publicUrl: string): string {
  const meta = metaFor(path, site.brand);
  if (!meta) throw new Error(`no meta for ${path}`);
  const url = `${publicUrl}${path === '/' ? '/' : path}`;
  const image = `${publicUrl}/images/og-image.png`;
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.brand,
    url: `${publicUrl}/`,
    logo: `${publicUrl}/favicon.svg`,
    email: site.email,
    telephone: site.phone,
    foundingDate: '2024',
    address: { '@type': 'PostalAddress', streetAddress: site.address, addressLocality: 'Bangalore', addressCountry: 'IN' },
    sameAs: Object.values(site.social),
  };
  const ld: unknown[] = [organization];
  if (path === '/') ld.push({ '@context': 'https://schema.org', '@type': 'WebSite', name: site.brand, url: `${publicUrl}/` });
  if (path === '/faqs') {
    ld.push({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: FAQS.map((f) => ({ '@type': 'Question', name: f.q, acceptedAnswer: { '@type': 'Answer', text: faqAnswer(f.a, site) } })),
    });
  }
  return [
    `<title>${esc(meta.title)}</title>`,
    `<meta name="description" content="${esc(meta.description)}" />`,
    meta.indexable ? '' : '<meta name="robots" content="noindex" />',
    `<link rel="canonical" href="${esc(url)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${esc(site.brand)}" />`,
    `<meta property="og:title" content="${esc(meta.title)}" />`,
    `<meta property="og:description" content="${esc(meta.description)}" />`,
    `<meta property="og:url" content="${esc(url)}" />`,
    `<meta property="og:image" content="${esc(image)}" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    ...ld.map((item) => `<script type="application/ld+json">${json(item)}</script>`),
  ]
    .filter(Boolean)
    .join('\n    ');
}
