// Lighthouse on the public pages: mobile preset, median of RUNS
// runs per page, against the production build (dist/web, LIGHTHOUSE_DIST) served by the real app on
// loopback; it runs `npm run build` first unless LIGHTHOUSE_SKIP_BUILD=1 and the build exists
// (`npm run bench` sets it, having built when dist/ was missing). Prints the table with the targets
// and a met/missed column, the
// scores and the JavaScript loaded before interaction, and writes bench/results/lighthouse.{json,md}.
// "Before interaction" = every script the page requested while Lighthouse loaded it (no clicks, no
// scrolling), each counted at its brotli size (quality 11, as scripts/compress.mjs writes them).
//   LIGHTHOUSE_RUNS=3  LIGHTHOUSE_PAGES=/,/pricing,…  LIGHTHOUSE_SKIP_BUILD=1  LIGHTHOUSE_RESULTS=lighthouse (file name)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS, serveBuild } from './serve-build.ts';

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 4490);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PAGES = (process.env.LIGHTHOUSE_PAGES ?? '/,/pricing,/about,/faqs,/privacypolicy,/termsandconditions,/referAndEarn,/contact').split(
  ',',
);
// A run of some pages only can keep its own results beside the full table (e.g. lighthouse-home-pricing).
const RESULTS = process.env.LIGHTHOUSE_RESULTS ?? 'lighthouse';
const LOAD_AT_START = loadavg().map((n) => Number(n.toFixed(1)));
const TARGETS = { performance: 99, lcpMs: 1200, tbtMs: 50, cls: 0.01, jsKb: 25 }; // jsKb: decision 115
// The build carries no deployment values (decision 071): the one `npm run build` wrote serves here.
const DIST = resolve(process.env.LIGHTHOUSE_DIST ?? 'dist/web');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

if (!process.env.LIGHTHOUSE_SKIP_BUILD || !existsSync(join(DIST, 'prerendered', 'manifest.json'))) {
  const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, WEB_DIST_DIR: DIST } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const { app } = await serveBuild(DIST, PORT);

const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROMIUM_FLAGS });

type Scores = Record<(typeof CATEGORIES)[number], number> & {
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptBytes: number;
  scripts: string[];
};
const brotliSize = (path: string) => brotliCompressSync(readFileSync(join(DIST, path))).length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const results: Record<string, Scores & { runs: Scores[] }> = {};
try {
  for (const path of PAGES) {
    const runs: Scores[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(`${ORIGIN}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      });
      const lhr = result!.lhr;
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const scripts = [
        ...new Set(
          ((lhr.audits['network-requests']?.details as { items?: { resourceType?: string; url?: string }[] } | undefined)?.items ?? [])
            .filter((r) => r.resourceType === 'Script' && r.url?.startsWith(ORIGIN))
            .map((r) => new URL(r.url!).pathname),
        ),
      ];
      const scriptBytes = scripts.reduce((sum, s) => sum + brotliSize(s), 0);
      runs.push({
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        'best-practices': Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
        seo: Math.round((lhr.categories.seo?.score ?? 0) * 100),
        lcpMs: Math.round(audit('largest-contentful-paint')),
        tbtMs: Math.round(audit('total-blocking-time')),
        cls: Number(audit('cumulative-layout-shift').toFixed(3)),
        scriptBytes,
        scripts,
      });
    }
    // A run that could not measure (NaN metrics, score 0) says nothing about the page: left out.
    const valid = runs.filter((r) => Number.isFinite(r.lcpMs) && r.performance > 0);
    const pick = <K extends keyof Scores>(k: K) => median((valid.length ? valid : runs).map((r) => r[k] as number));
    results[path] = {
      performance: pick('performance'),
      accessibility: pick('accessibility'),
      'best-practices': pick('best-practices'),
      seo: pick('seo'),
      lcpMs: pick('lcpMs'),
      tbtMs: pick('tbtMs'),
      cls: pick('cls'),
      scriptBytes: pick('scriptBytes'),
      scripts: runs[0]?.scripts ?? [],
      runs,
    };
    const r = results[path]!;
    console.log(
      `${path.padEnd(8)} perf ${r.performance}  a11y ${r.accessibility}  best ${r['best-practices']}  seo ${r.seo}  LCP ` +
        `${r.lcpMs} ms  TBT ${r.tbtMs} ms  CLS ${r.cls}  JS before interaction ${(r.scriptBytes / 1024).toFixed(1)} KB (br)`,
    );
  }
} finally {
  await chrome.kill();
  await app.close();
}

const out = {
  date: new Date().toISOString(),
  loadAverageAtStart: LOAD_AT_START,
  loadAverage: loadavg().map((n) => Number(n.toFixed(1))),
  cpus: cpus().length,
  preset: 'mobile (Lighthouse default)',
  runs: RUNS,
  targets: TARGETS,
  lighthouse: results,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/${RESULTS}.json`, `${JSON.stringify(out, null, 2)}\n`);
// Targets (performance, LCP, TBT, CLS, JS) (accessibility and SEO stay 100).
const metOf = (r: Scores) => {
  const missed = [
    r.performance < TARGETS.performance && 'performance',
    r.accessibility < 100 && 'accessibility',
    r.seo < 100 && 'SEO',
    !(r.lcpMs <= TARGETS.lcpMs) && 'LCP',
    !(r.tbtMs <= TARGETS.tbtMs) && 'TBT',
    !(r.cls <= TARGETS.cls) && 'CLS',
    r.scriptBytes > TARGETS.jsKb * 1024 && 'JS',
  ].filter(Boolean);
  return missed.length ? `MISSED (${missed.join(', ')})` : 'met';
};
const rows = PAGES.map((p) => {
  const r = results[p]!;
  return (
    `| ${p} | ${r.performance} | ${r.accessibility} | ${r['best-practices']} | ${r.seo} | ${r.lcpMs} | ${r.tbtMs} | ` +
    `${r.cls} | ${(r.scriptBytes / 1024).toFixed(1)} | ${metOf(r)} |`
  );
});
const table = [
  `# Lighthouse, mobile preset (median of ${RUNS})`,
  '',
  `${out.date} — ${out.cpus} CPUs, load average ${out.loadAverageAtStart.join(' / ')} at the start, ` +
    `${out.loadAverage.join(' / ')} at the end (1 / 5 / 15 min; other work on the machine inflates TBT). JS = every script ` +
    `requested while the page loaded, no interaction (dynamic imports included), brotli.`,
  '',
  '| page | performance | accessibility | best practices | SEO | LCP ms | TBT ms | CLS | JS KB (br) | met? |',
  '|---|---|---|---|---|---|---|---|---|---|',
  `| target | ≥ ${TARGETS.performance} | 100 | | 100 | ≤ ${TARGETS.lcpMs} | ≤ ${TARGETS.tbtMs} | ≤ ${TARGETS.cls} | ≤ ${TARGETS.jsKb} | |`,
  ...rows,
].join('\n');
console.log(`\n${table}`);
writeFileSync(`bench/results/${RESULTS}.md`, `${table}\n`);
process.exit(0);
