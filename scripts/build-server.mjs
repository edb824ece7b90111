// `npm run build` (last step): compiles the server to one plain-JavaScript ES module,
// dist/server/main.js, so `npm start` runs it with plain `node` — no TypeScript loader in
// production (docs/decisions/060-compiled-server.md).
// Packages in node_modules stay external: several of them read their own files at run time
// (PGlite's WASM and data bundle, pdfkit's fonts) relative to where they are installed.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = process.env.SERVER_DIST_DIR ?? 'dist/server';

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const started = Date.now();
await build({
  entryPoints: ['src/server/main.ts'],
  outfile: `${OUT}/main.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  // Stack traces and logs keep readable names; the bundle is not shipped to browsers.
  minify: false,
  logLevel: 'warning',
});
// migrate.ts reads `./migrations/` next to itself (import.meta.url): next to the bundle, too.
cpSync('src/server/db/migrations', `${OUT}/migrations`, { recursive: true });
console.log(`server compiled to ${OUT}/main.js in ${Date.now() - started} ms`);
