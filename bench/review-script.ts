// The weight of review.js, the script staging sites embed (decision 241): what a page loads before
// the first pin (review.js alone) against the 15 KB brotli budget, and the screenshot chunk loaded
// at the first pin. Built fresh from the sources (scripts/build-review-script.mjs) into a temporary
// folder, so it measures what `npm run build` would ship. Writes bench/results/review-script.md.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const BUDGET = 15 * 1024;
const out = mkdtempSync(join(tmpdir(), 'review-script-'));
try {
  execFileSync(process.execPath, ['scripts/build-review-script.mjs'], { env: { ...process.env, REVIEW_SCRIPT_OUT: out }, stdio: 'pipe' });
  const rows = readdirSync(out)
    .sort((a, b) => (a === 'review.js' ? -1 : b === 'review.js' ? 1 : a.localeCompare(b)))
    .map((name) => {
      const body = readFileSync(join(out, name));
      const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      return {
        name,
        when: name === 'review.js' ? 'at load (before the first pin)' : 'at the first pin',
        raw: body.length,
        gzip: gzipSync(body, { level: 9 }).length,
        br,
      };
    });
  const first = rows.find((r) => r.name === 'review.js')!;
  const met = first.br <= BUDGET;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const table = [
    '| file | loaded | raw | gzip | brotli |',
    '| --- | --- | ---: | ---: | ---: |',
    ...rows.map(
      (r) => `| ${r.name.replace(/-[A-Za-z0-9]{8}\.js$/, '-<hash>.js')} | ${r.when} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.br)} |`,
    ),
  ].join('\n');
  const report = `# review.js weight\n\n${new Date().toISOString()} · load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(
      ' ',
    )}\n\n${table}\n\nBudget before the first pin: ≤ ${kb(BUDGET)} brotli — review.js is ${kb(first.br)}: **${met ? 'met' : 'missed'}**.\n`;
  writeFileSync('bench/results/review-script.md', report);
  console.log(report);
  if (!met) process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
