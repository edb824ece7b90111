// JavaScript a prerendered public page asks for before the visitor does anything (issue 11.2,
// docs/decisions/074): its module scripts and module preloads, and every chunk those import
// statically (followed through Vite's manifest), in brotli bytes (quality 11). Dynamic imports —
// the islands, React — load on interaction and are not counted. Used by bench/page-js.ts, by the
// build (scripts/prerender.mjs fails on a regression) and by bench/page-js-budget.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

/** The eight public pages of issue 11.2. */
export const BUDGET_PAGES = ['/', '/pricing', '/about', '/faqs', '/privacypolicy', '/termsandconditions', '/referAndEarn', '/contact'];
/** Brotli bytes of JavaScript before interaction, per page. */
export const BUDGET_BYTES = 60 * 1024;

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

export interface PageJs {
  page: string;
  /** Files (under the build directory) in load order, each with its brotli size. */
  files: { file: string; brotli: number }[];
  brotli: number;
  /** The router app's entry (index-*.js) is among them: the page would boot the whole app. */
  routerEntry: boolean;
  withinBudget: boolean;
}

const brotliSize = (body: Buffer) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }).length;

/** The JavaScript URLs a page's HTML loads before interaction: module scripts and module preloads. */
export function referencedScripts(html: string): string[] {
  const urls: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name: string) => new RegExp(`\\s${name}=["']([^"']*)["']`, 'i').exec(tag)?.[1];
    if (/^<script/i.test(tag) && attr('src') && (attr('type') ?? 'text/javascript') !== 'application/json') urls.push(attr('src')!);
    if (/^<link/i.test(tag) && /^(modulepreload|preload)$/i.test(attr('rel') ?? '') && (attr('rel')!.toLowerCase() === 'modulepreload' || attr('as') === 'script')) urls.push(attr('href')!);
  }
  return urls;
}

/** Measures the pages of a web build (dist/web with prerendered/ and .vite/manifest.json). */
export function measurePageJs(webDir: string, pages: string[] = BUDGET_PAGES, budget = BUDGET_BYTES): PageJs[] {
  const viteManifest = JSON.parse(readFileSync(join(webDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const byFile = new Map(Object.values(viteManifest).map((c) => [c.file, c]));
  const routerEntryFile = viteManifest['index.html']?.file;
  const pageFiles = (JSON.parse(readFileSync(join(webDir, 'prerendered', 'manifest.json'), 'utf8')) as { pages: Record<string, string> }).pages;
  const sizes = new Map<string, number>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) sizes.set(file, (size = brotliSize(readFileSync(join(webDir, file)))));
    return size;
  };
  return pages.map((page) => {
    const htmlFile = pageFiles[page];
    if (!htmlFile) throw new Error(`the build has no prerendered page for ${page}`);
    const html = readFileSync(join(webDir, 'prerendered', htmlFile), 'utf8');
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      // Static imports of a chunk load before it runs; Vite's manifest lists them by key.
      for (const key of byFile.get(file)?.imports ?? []) {
        const dep = viteManifest[key];
        if (dep) visit(dep.file);
      }
    };
    for (const url of referencedScripts(html)) {
      if (/^(https?:)?\/\//.test(url)) throw new Error(`${page} loads a script from another origin: ${url}`);
      visit(url.replace(/^\//, ''));
    }
    const files = [...seen].map((file) => ({ file, brotli: sizeOf(file) }));
    const brotli = files.reduce((sum, f) => sum + f.brotli, 0);
    const routerEntry = [...seen].some((f) => f === routerEntryFile || /(^|\/)index-[\w-]+\.js$/.test(f));
    return { page, files, brotli, routerEntry, withinBudget: !routerEntry && brotli <= budget };
  });
}

/** The result as a Markdown table with the target and met/missed per page. */
export function pageJsTable(rows: PageJs[], budget = BUDGET_BYTES): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  return [
    '| page | JS before interaction (brotli) | target | files | router entry | |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.page} | ${kb(r.brotli)} | ≤ ${kb(budget)} | ${r.files.map((f) => `${f.file.replace(/^assets\//, '')} (${kb(f.brotli)})`).join(', ')} | ${r.routerEntry ? 'LOADED' : 'no'} | ${r.withinBudget ? 'met' : 'MISSED'} |`),
  ].join('\n');
}
