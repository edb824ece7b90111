// JavaScript before interaction on the eight public pages (issue 11.2): reads the build (dist/web,
// or WEB_DIST_DIR), prints the table with the 60 KB brotli target and writes
// bench/results/page-js.{json,md}. Exits 1 when a page is over budget or loads the router entry.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUDGET_BYTES, measurePageJs, pageJsTable } from './page-js-budget.ts';

const webDir = process.env.WEB_DIST_DIR ?? 'dist/web';
if (!existsSync(join(webDir, 'prerendered', 'manifest.json'))) {
  console.error(`bench/page-js.ts needs the build: run \`npm run build\` first (${webDir}/prerendered/manifest.json)`);
  process.exit(1);
}
const rows = measurePageJs(webDir);
const table = [
  `JavaScript before interaction on the public pages: module scripts + module preloads of the prerendered HTML and their static imports, brotli quality 11 (${new Date().toISOString()})`,
  '',
  pageJsTable(rows),
].join('\n');
console.log(table);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/page-js.md', `${table}\n`);
writeFileSync('bench/results/page-js.json', `${JSON.stringify({ date: new Date().toISOString(), budgetBytes: BUDGET_BYTES, rows }, null, 2)}\n`);
if (rows.some((r) => !r.withinBudget)) process.exit(1);
