import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePageJs, referencedScripts } from './page-js-budget.ts';

// The budget check of the public pages (docs/decisions/074) on a small build of its own; the real
// build is checked by scripts/prerender.mjs at every `npm run build`.

const dir = mkdtempSync(join(tmpdir(), 'page-js-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function build(pages: Record<string, string>) {
  mkdirSync(join(dir, '.vite'), { recursive: true });
  mkdirSync(join(dir, 'assets'), { recursive: true });
  mkdirSync(join(dir, 'prerendered'), { recursive: true });
  const files: Record<string, string> = {
    'assets/islands-aaaa1111.js': `import{a}from"./shared-bbbb2222.js";a();import("./react-cccc3333.js");${'x'.repeat(500)}`,
    'assets/shared-bbbb2222.js': `export const a=()=>1;${'y'.repeat(300)}`,
    'assets/react-cccc3333.js': randomBytes(30_000).toString('base64'), // does not compress, as minified code barely does
    'assets/index-dddd4444.js': `import{a}from"./shared-bbbb2222.js";${'w'.repeat(200)}`,
  };
  for (const [f, body] of Object.entries(files)) writeFileSync(join(dir, f), body);
  writeFileSync(
    join(dir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-dddd4444.js', isEntry: true, imports: ['_shared-bbbb2222.js'] },
      'islands.ts': { file: 'assets/islands-aaaa1111.js', isEntry: true, imports: ['_shared-bbbb2222.js'], dynamicImports: ['_react-cccc3333.js'] },
      '_shared-bbbb2222.js': { file: 'assets/shared-bbbb2222.js' },
      '_react-cccc3333.js': { file: 'assets/react-cccc3333.js' },
    }),
  );
  const routes: Record<string, string> = {};
  for (const [page, html] of Object.entries(pages)) {
    const file = `${page === '/' ? 'index' : page.slice(1)}.html`;
    routes[page] = file;
    writeFileSync(join(dir, 'prerendered', file), html);
  }
  writeFileSync(join(dir, 'prerendered', 'manifest.json'), JSON.stringify({ routes: [], pages: routes, notFound: '404.html' }));
}

const islandsPage =
  '<head><script type="module" crossorigin src="/assets/islands-aaaa1111.js"></script><script type="application/ld+json">{}</script></head><body></body>';

describe('JavaScript before interaction', () => {
  it('finds module scripts and module preloads, not JSON or stylesheets', () => {
    expect(
      referencedScripts(
        '<script type="module" crossorigin src="/assets/a.js"></script><link rel="modulepreload" crossorigin href="/assets/b.js"><link rel="stylesheet" href="/assets/c.css"><script type="application/json" id="x">{}</script>',
      ),
    ).toEqual(['/assets/a.js', '/assets/b.js']);
  });

  it('counts the entry and its static imports, not what it imports dynamically', () => {
    build({ '/': islandsPage });
    const [row] = measurePageJs(dir, ['/']);
    expect(row!.files.map((f) => f.file)).toEqual(['assets/islands-aaaa1111.js', 'assets/shared-bbbb2222.js']);
    expect(row!.brotli).toBe(row!.files[0]!.brotli + row!.files[1]!.brotli);
    expect(row!.brotli).toBeLessThan(1024);
    expect(row!.routerEntry).toBe(false);
    expect(row!.withinBudget).toBe(true);
  });

  it('flags a page that loads the router entry, and one over budget', () => {
    build({
      '/': '<script type="module" crossorigin src="/assets/index-dddd4444.js"></script>',
      '/about': `${islandsPage}<link rel="modulepreload" href="/assets/react-cccc3333.js">`,
    });
    const [home, about] = measurePageJs(dir, ['/', '/about'], 200);
    expect(home!.routerEntry).toBe(true);
    expect(home!.withinBudget).toBe(false);
    expect(about!.routerEntry).toBe(false);
    expect(about!.files.map((f) => f.file)).toContain('assets/react-cccc3333.js');
    expect(about!.withinBudget).toBe(false);
  });

  it('refuses a page the build does not have', () => {
    build({ '/': islandsPage });
    expect(() => measurePageJs(dir, ['/pricing'])).toThrow(/no prerendered page for \/pricing/);
  });
});
