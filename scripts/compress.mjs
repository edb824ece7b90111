// Writes .br and .gz next to every text asset; the server reads them once at start-up
// and serves them from memory (src/server/plugins/web.ts). Files that carry serve-time sentinels
// (prerendered pages, the app shell, robots.txt, sitemap.xml) are left out: the server substitutes
// the configuration and compresses those itself at start-up.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = process.env.WEB_DIST_DIR ?? 'dist/web';
const servedAfterSubstitution = (rel) => rel.startsWith('prerendered') || ['index.html', 'robots.txt', 'sitemap.xml'].includes(rel);
const walk = (dir) => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
let count = 0;
for (const file of walk(root)) {
  if (!/\.(js|css|html|svg|json|txt|xml)$/.test(file) || servedAfterSubstitution(relative(root, file))) continue;
  const body = readFileSync(file);
  if (body.length < 1024) continue;
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  count++;
}
console.log(`compressed ${count} files`);
