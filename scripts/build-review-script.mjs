// `npm run build` (after vite): review.js, the script staging sites embed (decisions 240, 241), and
// its screenshot chunk, loaded only at the first pin. Two separate bundles: review.js is a classic
// script (a plain <script async> tag), the chunk an ES module it imports by its hashed name.
// Output: dist/web/review/ (or REVIEW_SCRIPT_OUT), served by src/server/features/site-review/script-route.ts.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const OUT = process.env.REVIEW_SCRIPT_OUT ?? 'dist/web/review';
const common = {
  bundle: true,
  minify: true,
  write: false,
  target: 'es2020',
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const shot = await build({ ...common, entryPoints: ['src/web/review-script/shot.ts'], format: 'esm' });
const shotCode = shot.outputFiles[0].contents;
const chunk = `review-shot-${createHash('sha256').update(shotCode).digest('base64url').replace(/[-_]/g, '').slice(0, 8)}.js`;
writeFileSync(join(OUT, chunk), shotCode);
const main = await build({
  ...common,
  entryPoints: ['src/web/review-script/review.ts'],
  format: 'iife',
  define: { __SHOT_CHUNK__: JSON.stringify(chunk) },
});
writeFileSync(join(OUT, 'review.js'), main.outputFiles[0].contents);
console.log(`review.js (${main.outputFiles[0].contents.length} B) and ${chunk} (${shotCode.length} B) in ${OUT}`);
