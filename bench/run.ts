// `npm run bench`: builds when dist/ is missing, then runs every benchmark script one after the
// other. Each prints its table with the targets and a met/missed column and writes
// bench/results/; one failing does not stop the others. At the end the tables are printed again
// together, with each script's outcome. Exit code 1 when a script failed.
//   BENCH_ONLY=api,lighthouse  runs only those scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';

const SCRIPTS: { file: string; what: string; results: string[] }[] = [
  { file: 'page-js.ts', what: 'JavaScript before interaction on the public pages, in Chromium', results: ['page-js.md'] },
  { file: 'review-script.ts', what: 'review.js weight before the first pin (decision 241)', results: ['review-script.md'] },
  { file: 'api.ts', what: 'server throughput, ratio to bare node:http', results: ['api.md'] },
  { file: 'startup.ts', what: 'start-up time and memory', results: ['startup.md'] },
  { file: 'lighthouse.ts', what: 'Lighthouse on the public pages', results: ['lighthouse.md'] },
  { file: 'chat-load.ts', what: 'chat at 1,000 sockets', results: ['chat-load.md'] },
  { file: 'site-checks.ts', what: 'site checks: 2,000 sites per 60 s on one instance', results: ['site-checks.md'] },
];
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.replace(/\.ts$/, ''));

const needsBuild = !existsSync('dist/server/main.js') || !existsSync('dist/web/prerendered/manifest.json');
if (needsBuild) {
  console.log('▶ dist/ is missing: npm run build');
  const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('✗ the build failed: no benchmark can run');
    process.exit(1);
  }
}

const outcomes: { file: string; what: string; status: string; results: string[]; started: number }[] = [];
for (const s of SCRIPTS.filter((f) => existsSync(`bench/${f.file}`) && (!only || only.includes(f.file.replace(/\.ts$/, ''))))) {
  console.log(`\n▶ bench/${s.file} — ${s.what}`);
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${s.file}`], {
    stdio: 'inherit',
    env: { ...process.env, LIGHTHOUSE_SKIP_BUILD: process.env.LIGHTHOUSE_SKIP_BUILD ?? '1' },
  });
  const took = `${Math.round((Date.now() - started) / 1000)} s`;
  const status =
    r.status === 0
      ? `ran (${took})`
      : `FAILED — exit ${r.status ?? r.signal} after ${took}: a target missed or the script broke, see its output above (the others still ran)`;
  outcomes.push({ ...s, status, started });
}

console.log('\n════════ benchmark summary ════════');
for (const o of outcomes) {
  console.log(`\n## bench/${o.file} — ${o.what}: ${o.status}\n`);
  for (const file of o.results) {
    const path = `bench/results/${file}`;
    if (!existsSync(path)) console.log(`(no ${path})`);
    else if (statSync(path).mtimeMs < o.started)
      console.log(`(${path} was not written by this run; it is from ${statSync(path).mtime.toISOString()})`);
    else console.log(readFileSync(path, 'utf8').trim());
  }
}
if (outcomes.some((o) => o.status.startsWith('FAILED'))) process.exit(1);
