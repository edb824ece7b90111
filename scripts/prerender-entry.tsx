// Server-side entry of the prerender (built by Vite in SSR mode, run by scripts/prerender.mjs):
// renders one public page to HTML with React Router's static handler, and its <head> tags.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { PublicSiteConfig } from '../src/contract/site.ts';
import { routes } from '../src/web/routes.tsx';
import { PAGE_META, metaFor } from '../src/web/features/seo/page-meta.ts';
import { FAQS } from '../src/web/features/landing/faqs-data.ts';

export const PRERENDER_PATHS = Object.keys(PAGE_META);
export const SITEMAP_PATHS = PRERENDER_PATHS.filter((p) => PAGE_META[p]!.indexable);

export async function renderPage(path: string, site: PublicSiteConfig): Promise<string> {
  (globalThis as { __SITE_CONFIG__?: PublicSiteConfig }).__SITE_CONFIG__ = site;
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender.local${path}`));
  if (context instanceof Response) throw new Error(`prerender of ${path} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
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
      mainEntity: FAQS.map((f) => ({ '@type': 'Question', name: f.q, acceptedAnswer: { '@type': 'Answer', text: f.a } })),
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
