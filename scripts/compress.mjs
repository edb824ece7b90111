// Writes .br and .gz next to every text asset so @fastify/static serves them precompressed (DESIGN §8).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = process.env.WEB_DIST_DIR ?? 'dist/web';
const walk = (dir) => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
let count = 0;
for (const file of walk(root)) {
  if (!/\.(js|css|html|svg|json|txt|xml)$/.test(file)) continue;
  const body = readFileSync(file);
  if (body.length < 1024) continue;
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  count++;
}
console.log(`compressed ${count} files`);
