// `npm run lint`'s last step: no line of code over 160 characters (decision 348). Prettier wraps code
// at 140 but leaves strings, comments and template text alone; this catches what it cannot wrap.
// Data files (texts and shapes the site shows as they are) are listed with their reason.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const LIMIT = 160;
const CODE = /\.(ts|tsx|js|mjs|cjs|css|sql)$/;
/** Data, not code: a line is one text, path or minified style that reads best unbroken. */
const DATA_FILES = new Map([
  ['src/web/features/landing/faqs-data.ts', 'the FAQ answers, one per line as the spec words them'],
  ['src/web/features/landing/feature-cards-data.ts', 'the feature cards, one text per line as the spec words them'],
  ['src/web/features/seo/page-meta.ts', 'page descriptions, one per page'],
  ['src/web/features/geo/weather-shapes.ts', 'SVG path data'],
  ['src/web/components/social-links.tsx', 'SVG path data of the brand icons'],
  ['src/web/features/auth/social-buttons.tsx', 'SVG path data of the sign-in providers’ logos'],
  ['src/web/review-script/styles.ts', 'the review toolbar style, minified on purpose (its size is budgeted)'],
  ['src/server/features/assistant/knowledge.ts', 'the assistant’s knowledge, one answer per line'],
  ['src/domain/terms.ts', 'the terms of service, one clause per line'],
]);
const isData = (file) => DATA_FILES.has(file) || file.startsWith('tests/fixtures/') || file.startsWith('src/server/db/migrations/');

const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => CODE.test(f) && !isData(f));
const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed by git but deleted in the work tree
  }
  text.split('\n').forEach((line, i) => {
    if (line.length > LIMIT) long.push(`${file}:${i + 1}: ${line.length} characters`);
  });
}
if (long.length > 0) {
  console.error(`Lines over ${LIMIT} characters (wrap them, or list a data file in scripts/lint-lines.mjs with its reason):`);
  for (const l of long) console.error(`  ${l}`);
  process.exit(1);
}
